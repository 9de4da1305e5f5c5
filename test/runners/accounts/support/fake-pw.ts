// A FAKE of FreeBSD's pw(8), for the pw user and group providers: pw does not run on Debian
// (docs/portability.md). It accepts exactly the syntax pw(8) gives for what the providers send (the
// name right after the command, then options), and refuses anything else with a usage error (exit
// 64, EX_USAGE), so the providers' argv is pinned:
//   pw useradd NAME [-u UID] [-g GROUP] [-G G1,G2] [-d HOME] [-m] [-s SHELL] [-c COMMENT]
//   pw usermod NAME [-u UID] [-g GROUP] [-G G1,G2] [-d HOME] [-s SHELL] [-c COMMENT] [-H 0]
//   pw userdel NAME [-r]
//   pw usershow NAME                    the master.passwd line; exit 67 (EX_NOUSER) when unknown
//   pw groupadd NAME [-g GID] [-M M1,M2]
//   pw groupmod NAME [-g GID] [-M M1,M2 | -d M1,M2]
//   pw groupdel NAME
// `-H 0` reads the hash from stdin. It logs each call, then makes the change with shadow-utils (by
// absolute path: useradd is not on the PATH the runner sees) with pw's documented defaults: a group
// of the user's name unless -g, home /home/NAME, shell /bin/sh. It runs inside AccountsNamespace
// (fake-busybox.ts), so the machine's own account files never change.
import { LOG_CALL } from '../../../support/fake-programs.js';

export const PW = `#!/bin/sh
# FAKE FreeBSD pw(8) (test/runners/accounts/support/fake-pw.ts)
${LOG_CALL}log_call "$@"
usage() { echo "pw (fake): usage: $*" >&2; exit 64; }
S=/usr/sbin
[ $# -ge 2 ] || usage "pw COMMAND NAME [OPTIONS]"
cmd=$1 name=$2; shift 2
case $name in -*|'') usage "a name right after $cmd, not '$name'" ;; esac
case $cmd in
useradd|usermod)
  set -- "$@" --end
  hash=
  while [ "$1" != --end ]; do
    case $1 in
      -u|-g|-G|-d|-s|-c) [ "$2" != --end ] || usage "$1 needs a value"; eval "v_\${1#-}=\\$2"; shift 2 ;;
      -m) [ $cmd = useradd ] || usage "-m is for useradd here"; m=1; shift ;;
      -H) [ $cmd = usermod ] && [ "$2" = 0 ] || usage "-H 0 (usermod)"; hash=1; shift 2 ;;
      *) usage "unknown option $1" ;;
    esac
  done
  set --
  [ -n "\${v_u:-}" ] && set -- "$@" -u "$v_u"
  [ -n "\${v_g:-}" ] && set -- "$@" -g "$v_g"
  [ -n "\${v_G+x}" ] && set -- "$@" -G "$v_G"
  [ -n "\${v_d:-}" ] && set -- "$@" -d "$v_d"
  [ -n "\${v_s:-}" ] && set -- "$@" -s "$v_s"
  [ -n "\${v_c+x}" ] && set -- "$@" -c "$v_c"
  if [ $cmd = useradd ]; then
    [ -n "\${v_g:-}" ] || set -- "$@" -U
    [ -n "\${v_d:-}" ] || set -- "$@" -d "/home/$name"
    [ -n "\${v_s:-}" ] || set -- "$@" -s /bin/sh
    if [ -n "\${m:-}" ]; then set -- "$@" -m; else set -- "$@" -M; fi
    exec $S/useradd "$@" -- "$name"
  fi
  [ $# -eq 0 ] || $S/usermod "$@" -- "$name" || exit 1
  if [ -n "$hash" ]; then read -r h; printf '%s:%s\\n' "$name" "$h" | $S/chpasswd -e || exit 1; fi ;;
userdel)
  case "$*" in '') exec $S/userdel -- "$name" ;; -r) exec $S/userdel -r -- "$name" ;; *) usage "userdel NAME [-r]" ;; esac ;;
usershow)
  [ $# -eq 0 ] || usage "usershow NAME"
  p=$(getent passwd "$name") || { echo "pw: no such user \\\`$name'" >&2; exit 67; }
  h=$(getent shadow "$name" | cut -d: -f2)
  IFS=: read -r n x uid gid gecos home shell <<EOT
$p
EOT
  echo "$n:$h:$uid:$gid::0:0:$gecos:$home:$shell" ;;
groupadd|groupmod)
  gid= members= del=
  while [ $# -gt 0 ]; do
    case $1 in
      -g) gid=$2; shift 2 ;;
      -M) members=$2; [ -n "$members" ] || usage "-M needs members"; shift 2 ;;
      -d) [ $cmd = groupmod ] || usage "-d is for groupmod"; del=$2; shift 2 ;;
      *) usage "unknown option $1" ;;
    esac
  done
  [ -z "$members" ] || [ -z "$del" ] || usage "-M and -d together"
  if [ $cmd = groupadd ]; then $S/groupadd \${gid:+-g "$gid"} -- "$name" || exit 1
  elif [ -n "$gid" ]; then $S/groupmod -g "$gid" -- "$name" || exit 1; fi
  [ -z "$members" ] || /usr/bin/gpasswd -M "$members" "$name" >/dev/null || exit 1
  if [ -n "$del" ]; then for u in $(echo "$del" | tr , ' '); do /usr/bin/gpasswd -d "$u" "$name" >/dev/null || exit 1; done; fi ;;
groupdel)
  [ $# -eq 0 ] || usage "groupdel NAME"; exec $S/groupdel -- "$name" ;;
*) usage "unknown command $cmd" ;;
esac
`;
