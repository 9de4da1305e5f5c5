// FAKES of FreeBSD's service(8) and sysrc(8), for the freebsd service provider: neither runs on
// Debian (docs/portability.md). They accept exactly the syntax their manual pages give for what
// the provider sends, answer as rc.subr(8) documents, and refuse anything else with a usage error
// (exit 64), so the provider's argv is pinned:
//   service -l                       every rc.d script's name, a line each
//   service NAME [one]status         exit 0 "NAME is running as pid N.", 1 "NAME is not running."
//   service NAME [one]start|stop|restart|reload
//   sysrc -n VAR                     VAR's value, from rc.conf, else from its defaults; unknown: exit 1
//   sysrc VAR=VALUE                  sets VAR in rc.conf, printing "VAR: OLD -> NEW"
// As rc.subr documents, a command without the `one` prefix is refused (exit 1, "Cannot 'start'
// NAME. Set NAME_enable to YES in /etc/rc.conf or use 'onestart' instead of 'start'.") unless
// NAME_enable is YES. The scripts are files under rc.d/, a running service is a file under running/,
// rc.conf and defaults are files of VAR=VALUE lines. Each call is logged as `PROGRAM [ARG]...`.
import fs from 'node:fs';
import path from 'node:path';
import { FakePrograms, LOG_CALL } from '../../../support/fake-programs.js';

const LOG = `${LOG_CALL}usage() { echo "$(basename "$0") (fake): usage: $*" >&2; exit 64; }
value() { v=$(sed -n "s/^$1=//p" "$FAKE_DIR/rc.conf" | tail -n 1); [ -n "$v" ] || v=$(sed -n "s/^$1=//p" "$FAKE_DIR/defaults" | tail -n 1); [ -n "$v" ] && echo "$v"; }
`;

const SERVICE = `#!/bin/sh
# FAKE FreeBSD service(8) (test/runners/service/support/fake-freebsd-rc.ts)
${LOG}log_call "$@"
d=$FAKE_DIR
[ "$*" = -l ] && { ls "$d/rc.d"; exit 0; }
[ $# -eq 2 ] || usage "service -l | service NAME COMMAND"
name=$1 cmd=$2
case $name in -*|*/*|'') usage "a script name, not '$name'" ;; esac
[ -f "$d/rc.d/$name" ] || { echo "$name does not exist in /etc/rc.d or the local startup directories (/usr/local/etc/rc.d), or is not executable" >&2; exit 1; }
case $cmd in
  one*) cmd=\${cmd#one} ;;
  *) case $(value "$(echo "$name" | tr .- __)_enable") in [Yy][Ee][Ss]) ;; *) echo "Cannot '$cmd' $name. Set $(echo "$name" | tr .- __)_enable to YES in /etc/rc.conf or use 'one$cmd' instead of '$cmd'." >&2; exit 1 ;; esac ;;
esac
case $cmd in
  status) [ -f "$d/running/$name" ] && { echo "$name is running as pid 4242."; exit 0; }; echo "$name is not running."; exit 1 ;;
  start) [ -f "$d/running/$name" ] && { echo "$name already running? (pid=4242)."; exit 0; }; touch "$d/running/$name"; echo "Starting $name." ;;
  stop) [ -f "$d/running/$name" ] || { echo "$name not running? (check /var/run/$name.pid)." >&2; exit 1; }; rm "$d/running/$name"; echo "Stopping $name." ;;
  restart) rm -f "$d/running/$name"; touch "$d/running/$name"; echo "Stopping $name."; echo "Starting $name." ;;
  reload) [ -f "$d/running/$name" ] || { echo "$name not running? (check /var/run/$name.pid)." >&2; exit 1; }; echo "Reloading $name config files." ;;
  *) usage "COMMAND is [one]start, stop, restart, reload or status, not '$2'" ;;
esac
`;

const SYSRC = `#!/bin/sh
# FAKE FreeBSD sysrc(8) (test/runners/service/support/fake-freebsd-rc.ts)
${LOG}log_call "$@"
if [ $# -eq 2 ] && [ "$1" = -n ]; then
  case $2 in *=*|-*) usage "sysrc -n VAR" ;; esac
  value "$2" || { echo "sysrc: unknown variable '$2'" >&2; exit 1; }
  exit 0
fi
[ $# -eq 1 ] || usage "sysrc -n VAR | sysrc VAR=VALUE"
case $1 in [A-Za-z_]*=*) ;; *) usage "sysrc VAR=VALUE, not '$1'" ;; esac
var=\${1%%=*} new=\${1#*=}
case $var in *[!A-Za-z0-9_]*) usage "a variable name, not '$var'" ;; esac
old=$(value "$var")
echo "$var=$new" >> "$FAKE_DIR/rc.conf"
echo "$var: $old -> $new"
`;

export class FakeFreebsdRc extends FakePrograms {
  constructor() {
    super('govern-fake-rcd-', ['rc.d', 'running']);
    this.program('service', SERVICE);
    this.program('sysrc', SYSRC);
    for (const file of ['rc.conf', 'defaults']) fs.writeFileSync(path.join(this.dir, file), '');
  }

  /** The environment with the fakes first on PATH. */
  get env(): NodeJS.ProcessEnv {
    return this.fakeEnv();
  }

  /** An rc.d script, with its NAME_enable="NO" in the defaults as FreeBSD's base scripts have. */
  script(name: string, defaultEnable?: string): void {
    fs.writeFileSync(path.join(this.dir, 'rc.d', name), '');
    if (defaultEnable !== undefined) fs.appendFileSync(path.join(this.dir, 'defaults'), `${name.replace(/[-.]/g, '_')}_enable=${defaultEnable}\n`);
  }

  running(name: string): boolean {
    return fs.existsSync(path.join(this.dir, 'running', name));
  }

  /** The value rc.conf gives the variable now (the last assignment), if any. */
  rcConf(variable: string): string | undefined {
    const lines = fs.readFileSync(path.join(this.dir, 'rc.conf'), 'utf8').split('\n').filter((l) => l.startsWith(`${variable}=`));
    return lines.at(-1)?.slice(variable.length + 1);
  }
}
