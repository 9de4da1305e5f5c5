// A FAKE of OpenBSD's rcctl(8), for the openbsd service provider: rcctl does not run on Debian
// (docs/portability.md). It accepts exactly the syntax rcctl's manual page gives for what the
// provider sends, answers by exit status as it documents, and refuses anything else with a usage
// error (exit 64), so the provider's argv is pinned:
//   rcctl check NAME                          exit 0 running, 1 not
//   rcctl get NAME status                     exit 0 enabled, 1 not
//   rcctl [-f] start|restart NAME, rcctl stop|reload NAME
//   rcctl enable|disable NAME
// Any command on a service with no rc.d script exits 2 ("service NAME does not exist"). As rc.d(8)
// documents, start (and restart) of a daemon that is not enabled fails unless forced with -f. The
// scripts are files under rc.d/, a running daemon a file under running/, an enabled one a file under
// enabled/. Each call is logged as `rcctl [ARG]...`.
import fs from 'node:fs';
import path from 'node:path';
import { FakePrograms, LOG_CALL } from '../../../support/fake-programs.js';

const RCCTL = `#!/bin/sh
# FAKE OpenBSD rcctl(8) (test/runners/service/support/fake-rcctl.ts)
${LOG_CALL}log_call "$@"
d=$FAKE_DIR
usage() { echo "rcctl (fake): usage: $*" >&2; exit 64; }
force=
[ "$1" = -f ] && force=1 && shift
case "$1 $#" in
  "get 3") [ "$3" = status ] || usage "get NAME status" ;;
  "check 2"|"start 2"|"stop 2"|"restart 2"|"reload 2"|"enable 2"|"disable 2") ;;
  *) usage "$*" ;;
esac
cmd=$1 name=$2
[ -z "$force" ] || [ "$cmd" = start ] || [ "$cmd" = restart ] || usage "-f with $cmd"
case $name in -*|*/*|'') usage "a daemon name, not '$name'" ;; esac
[ -f "$d/rc.d/$name" ] || { echo "rcctl: service $name does not exist" >&2; exit 2; }
on() { [ -f "$d/enabled/$name" ]; }
up() { [ -f "$d/running/$name" ]; }
case $cmd in
  check) up && { echo "$name(ok)"; exit 0; }; echo "$name(failed)"; exit 1 ;;
  get) on ;;
  start|restart)
    on || [ -n "$force" ] || { echo "$name(failed)"; echo "rc.d: $name: not enabled, use -f to force" >&2; exit 1; }
    touch "$d/running/$name"; echo "$name(ok)" ;;
  stop) rm -f "$d/running/$name"; echo "$name(ok)" ;;
  reload) up || { echo "$name(failed)"; exit 1; }; echo "$name(ok)" ;;
  enable) touch "$d/enabled/$name" ;;
  disable) rm -f "$d/enabled/$name" ;;
esac
`;

export class FakeRcctl extends FakePrograms {
  constructor() {
    super('govern-fake-rcctl-', ['rc.d', 'running', 'enabled']);
    this.program('rcctl', RCCTL);
  }

  get env(): NodeJS.ProcessEnv {
    return this.fakeEnv();
  }

  script(name: string): void {
    fs.writeFileSync(path.join(this.dir, 'rc.d', name), '');
  }

  running(name: string): boolean {
    return fs.existsSync(path.join(this.dir, 'running', name));
  }

  enabled(name: string): boolean {
    return fs.existsSync(path.join(this.dir, 'enabled', name));
  }
}
