// A FAKE of busybox's account applets (adduser, deluser, addgroup, delgroup, chpasswd), for the
// busybox user and group providers: Debian's busybox builds leave those applets out, so the real
// ones cannot run here (docs/portability.md). The fake accepts exactly the syntax busybox documents
// in its usage texts, and refuses anything else as busybox would (a usage error, exit 1):
//   adduser [-h DIR] [-g GECOS] [-s SHELL] [-G GRP] [-S] [-D] [-H] [-u UID] [-k SKEL] USER
//   adduser USER GROUP                      (no options: add USER to GROUP)
//   deluser [--remove-home] USER
//   addgroup [-g GID] [-S] GROUP, addgroup USER GROUP
//   delgroup GROUP, delgroup USER GROUP
//   chpasswd [-e|--encrypted] [-m|--md5]    (name:password lines on stdin)
// It logs each call, then makes the change with shadow-utils (by absolute path, so useradd is not
// on the PATH the runner sees) with busybox's documented defaults: home /home/USER, GECOS "Linux
// User,,,", a group of the user's name, and for -S the group nogroup and the shell /bin/false.
// adduser without -D would ask for a password on the terminal: the fake fails then.
// Everything runs inside AccountsNamespace, so the machine's own account files never change.
import fs from 'node:fs';
import path from 'node:path';
import { runCommand, type RunResult } from '../../../../src/shared/process.js';
import { CALL_ENV, parseResult } from '../../../../src/shared/protocol.js';
import { RUNNERS_DIR } from '../../../support/cli.js';
import { FakePrograms, LOG_CALL } from '../../../support/fake-programs.js';
import { PW } from './fake-pw.js';

const APPLET = `#!/bin/sh
# FAKE busybox account applet (test/runners/accounts/support/fake-busybox.ts)
applet=$(basename "$0")
${LOG_CALL}log_call "$@"
usage() { echo "BusyBox (fake) usage error: $applet $*" >&2; exit 1; }
S=/usr/sbin
case "$applet" in
adduser)
  home= gecos='Linux User,,,' shell= group= system= nopass= nohome= uid= opts=
  while getopts h:g:s:G:SDHu:k: o; do
    opts=1
    case $o in
      h) home=$OPTARG ;; g) gecos=$OPTARG ;; s) shell=$OPTARG ;; G) group=$OPTARG ;;
      S) system=1; nopass=1 ;; D) nopass=1 ;; H) nohome=1 ;; u) uid=$OPTARG ;; k) ;; *) usage ;;
    esac
  done
  shift $((OPTIND - 1))
  [ $# -ge 1 ] && [ $# -le 2 ] || usage "one or two names"
  if [ $# -eq 2 ]; then [ -z "$opts" ] || usage "options with USER GROUP"; exec /usr/bin/gpasswd -a "$1" "$2" >/dev/null; fi
  [ -n "$nopass" ] || { echo "adduser: would run passwd $1 on the terminal (no -D)" >&2; exit 1; }
  set -- "$1" -l -c "$gecos" -d "\${home:-/home/$1}"
  [ -n "$uid" ] && set -- "$@" -u "$uid"
  [ -n "$system" ] && set -- "$@" -r && shell=\${shell:-/bin/false} && group=\${group:-nogroup}
  if [ -n "$group" ]; then set -- "$@" -g "$group"; else set -- "$@" -U; fi
  set -- "$@" -s "\${shell:-/bin/sh}"
  if [ -n "$nohome" ]; then set -- "$@" -M; else set -- "$@" -m; fi
  name=$1; shift
  exec $S/useradd "$@" -- "$name" ;;
deluser)
  remove=
  [ "$1" = --remove-home ] && remove=-r && shift
  [ $# -eq 1 ] || usage "one name"
  case $1 in -*) usage "a name starting with -" ;; esac
  exec $S/userdel $remove -- "$1" ;;
addgroup)
  gid= system= opts=
  while getopts g:S o; do
    opts=1
    case $o in g) gid=$OPTARG ;; S) system=1 ;; *) usage ;; esac
  done
  shift $((OPTIND - 1))
  [ $# -ge 1 ] && [ $# -le 2 ] || usage "one or two names"
  if [ $# -eq 2 ]; then [ -z "$opts" ] || usage "options with USER GROUP"; exec /usr/bin/gpasswd -a "$1" "$2" >/dev/null; fi
  set -- "$1"
  [ -n "$gid" ] && set -- "$@" -g "$gid"
  [ -n "$system" ] && set -- "$@" -r
  name=$1; shift
  exec $S/groupadd "$@" -- "$name" ;;
delgroup)
  case $# in
    1) case $1 in -*) usage "a name starting with -" ;; esac; exec $S/groupdel -- "$1" ;;
    2) exec /usr/bin/gpasswd -d "$1" "$2" >/dev/null ;;
    *) usage "one or two names" ;;
  esac ;;
chpasswd)
  for a in "$@"; do case $a in -e|--encrypted|-m|--md5) ;; *) usage "$a" ;; esac; done
  exec $S/chpasswd "$@" ;;
esac
usage
`;

const ENTER = `#!/bin/sh
# Runs "$@" with /etc an overlay whose changes land in this directory (see fake-busybox.ts).
R=$(dirname "$0")
exec unshare -m sh -c '
set -e
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$0/etc.upper,workdir=$0/etc.work" /etc
exec "$@"' "$R" "$@"
`;

/** A private copy of /etc (an overlay) and the fake applets (busybox's, or pw: fake-pw.ts) on a PATH without shadow-utils. */
export class AccountsNamespace extends FakePrograms {
  private readonly enter = path.join(this.dir, 'enter');

  constructor(fakes: 'busybox' | 'pw' = 'busybox') {
    super('govern-busybox-', ['etc.upper', 'etc.work', 'home']);
    if (fakes === 'pw') this.program('pw', PW);
    else this.program('busybox-accounts', APPLET, ['adduser', 'deluser', 'addgroup', 'delgroup', 'chpasswd']);
    fs.writeFileSync(this.enter, ENTER, { mode: 0o755 });
  }

  static available(): boolean {
    return process.getuid?.() === 0;
  }

  /** The environment of a call: the fake applets first, then only directories without useradd. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { ...process.env, ...this.fakeEnv('/usr/bin:/bin'), ...extra };
  }

  run(argv: string[], env: NodeJS.ProcessEnv = this.env()): Promise<RunResult> {
    return runCommand(this.enter, argv, { env, timeoutMs: 120_000 });
  }

  /** A call of the user or group runner inside the namespace, without the call variables of this process's environment. */
  async runner(name: 'user' | 'group', args: string[], extra: NodeJS.ProcessEnv = {}) {
    const env = this.env(extra);
    for (const key of CALL_ENV) if (extra[key] === undefined) delete env[key];
    const r = await this.run([path.join(RUNNERS_DIR, name), ...args], env);
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
  }

  /** The getent entry's fields inside the namespace, or undefined. */
  async entry(db: 'passwd' | 'group' | 'shadow', key: string): Promise<string[] | undefined> {
    const r = await this.run(['getent', db, key]);
    return r.code === 0 ? r.stdout.trim().split(':') : undefined;
  }
}
