#!/bin/sh
# The no-change workload of bench/generate.ts (N=100, without its sysv services, which need the
# harness's init scripts) and the same workload with 10 of each of the unit, sysctl, cron,
# authorized_key, kernel_module, mount, archive and git runners' resources added, each with its sh
# floor extended by the same checks: the files' content (stat, sha256sum), the live sysctl values
# (/proc/sys), each key's and fstab entry's line (grep), the modes of ~/.ssh and authorized_keys,
# /sys/module, /proc/self/mountinfo, the archives' markers and the checkouts' HEAD and status. The
# keys belong to a user it creates, govern-bench-keys. It prepares the two trees and converges them;
# time the commands it prints (bench/README.md, "The unit, sysctl, cron, authorized_key,
# kernel_module, mount, archive and git runners").
# usage: bench/new-types.sh [ROOT]   (as root, after make build); bench/new-types.sh clean [ROOT]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
unmount() { for m in "$1"/extended/mnt/*; do while grep -qF " $m " /proc/self/mountinfo; do umount "$m"; done; done 2>/dev/null || true; }
if [ "${1:-}" = clean ]; then
  root=${2:-/tmp/govern-bench-new-types}
  rm -f /etc/cron.d/govern-bench-cron-*
  unmount "$root"
  if getent passwd govern-bench-keys >/dev/null; then userdel -r govern-bench-keys 2>/dev/null || true; fi
  rm -rf "$root"
  exit 0
fi
root=${1:-/tmp/govern-bench-new-types}
unmount "$root"
rm -rf "$root"
node "$here/dist/bench/generate.js" --n 100 --root "$root/base" --tools govern,sh >/dev/null
base=$root/base/govern/policy
floor=$root/base/sh/policy/check.sh
mkdir -p "$root/base/govern/tree"
rm "$base/50-services.hcl"
sed -i '/^s /d' "$floor"

ext=$root/extended
mkdir -p "$ext/policy" "$ext/config" "$ext/sysctl"
cp "$base"/*.hcl "$ext/policy/"
sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
hcl=$ext/policy/60-new-types.hcl
checks=$ext/new-types.checks
: >"$hcl"
: >"$checks"
# Ten keys whose current values the no-change run keeps (read now, never written).
keys=$(cd /proc/sys && ls kernel | grep -E '^(printk_ratelimit|printk_ratelimit_burst|pid_max|threads-max|msgmax|msgmnb|msgmni|shmmni|randomize_va_space|sysrq|dmesg_restrict|kptr_restrict)$' | head -10)
i=0
for key in $keys; do
  i=$((i + 1))
  value=$(cat "/proc/sys/kernel/$key")
  unit="govern-bench-unit-$i.service"
  ucontent="[Service]\nExecStart=/bin/sleep $i\n"
  ccontent="# Managed by govern: cron \"govern-bench-cron-$i\"\n$i 3 * * * root /bin/true\n"
  scontent="# Managed by govern: sysctl \"kernel.$key\"\nkernel.$key = $value\n"
  cat >>"$hcl" <<HCL
unit "$unit" {
  scope   = "user"
  content = "$ucontent"
}

sysctl "kernel.$key" {
  value = "$value"
  file  = "$ext/sysctl/$key.conf"
}

cron "govern-bench-cron-$i" {
  command = "/bin/true"
  minute  = $i
  hour    = 3
}

HCL
  printf 'f %s 644 %s\n' "$ext/config/systemd/user/$unit" "$(sha "$(printf "$ucontent")
")" >>"$checks"
  printf 'f %s 644 %s\n' "/etc/cron.d/govern-bench-cron-$i" "$(sha "$(printf "$ccontent")
")" >>"$checks"
  printf 'f %s 644 %s\n' "$ext/sysctl/$key.conf" "$(sha "$(printf "$scontent")
")" >>"$checks"
  printf 'k %s %s\n' "/proc/sys/kernel/$key" "$value" >>"$checks"
done
# Ten keys of one user, made by ssh-keygen.
getent passwd govern-bench-keys >/dev/null || useradd -m -d "$root/keys-home" -s /bin/sh govern-bench-keys
home=$(getent passwd govern-bench-keys | cut -d: -f6)
mkdir -p "$root/keys"
printf 'a "%s" 700 root\na "%s" 600 root\n' "$home/.ssh" "$home/.ssh/authorized_keys" | sed 's/root$/govern-bench-keys/' >>"$checks"
for i in 1 2 3 4 5 6 7 8 9 10; do
  ssh-keygen -q -t ed25519 -N '' -C "bench-$i" -f "$root/keys/$i"
  set -- $(cat "$root/keys/$i.pub")
  cat >>"$hcl" <<HCL
authorized_key "bench-key-$i" {
  user = "govern-bench-keys"
  type = "$1"
  key  = "$2"
}

HCL
  printf 'l %s "%s %s bench-key-%s"\n' "$home/.ssh/authorized_keys" "$1" "$2" "$i" >>"$checks"
done
# Ten of each of kernel_module (modules /sys/module shows, listed in files of the tree), mount (tmpfs
# mounted, in a table of the tree), archive (a tar.gz extracted) and git (checkouts of one origin).
mods=$(cd /sys/module && ls | grep -E '^[a-z0-9_]+$' | head -10)
git_id='-c user.name=bench -c user.email=bench@example.org -c init.defaultBranch=main'
mkdir -p "$ext/modules" "$ext/mnt" "$ext/archives/src" "$ext/git"
: >"$ext/fstab"
echo bench >"$ext/archives/src/README"
tar -czf "$ext/archives/app.tar.gz" -C "$ext/archives/src" README
asha=$(sha256sum "$ext/archives/app.tar.gz" | cut -d' ' -f1)
git $git_id init -q --bare "$ext/git/origin.git"
git $git_id init -q "$ext/git/work"
echo bench >"$ext/git/work/README"
git -C "$ext/git/work" add README
git $git_id -C "$ext/git/work" commit -qm bench
git -C "$ext/git/work" push -q "$ext/git/origin.git" HEAD:main
head=$(git -C "$ext/git/work" rev-parse HEAD)
i=0
for mod in $mods; do
  i=$((i + 1))
  kcontent="# Managed by govern: kernel_module \"$mod\"\n$mod\n"
  cat >>"$hcl" <<HCL
kernel_module "$mod" {
  file = "$ext/modules/$mod.conf"
}

mount "$ext/mnt/$i" {
  device  = "govern-bench"
  fstype  = "tmpfs"
  options = "size=1m"
  fstab   = "$ext/fstab"
}

archive "$ext/archives/$i" {
  source = "$ext/archives/app.tar.gz"
  sha256 = "$asha"
}

git "$ext/git/$i" {
  source   = "$ext/git/origin.git"
  revision = "main"
}

HCL
  mkdir -p "$ext/mnt/$i"
  printf 'd %s\n' "/sys/module/$mod" >>"$checks"
  printf 'f %s 644 %s\n' "$ext/modules/$mod.conf" "$(sha "$(printf "$kcontent")
")" >>"$checks"
  printf 'mt %s\n' "$ext/mnt/$i" >>"$checks"
  printf 'l %s "govern-bench\t%s\ttmpfs\tsize=1m\t0\t0"\n' "$ext/fstab" "$ext/mnt/$i" >>"$checks"
  printf 'l %s "sha256 %s"\n' "$ext/archives/$i/.govern-archive" "$asha" >>"$checks"
  printf 'g %s %s\n' "$ext/git/$i" "$head" >>"$checks"
done
# The extended floor: the base checks, a live-value check, and the new files' checks.
sed -e '/^echo "checked=/,$d' "$floor" >"$ext/check.sh"
cat >>"$ext/check.sh" <<'SH'
k() { n=$((n + 1)); [ "$(cat "$1")" = "$2" ] || differs "$1"; }
a() { [ "$(stat -c '%a %U' "$1" 2>/dev/null)" = "$2 $3" ] || differs "$1"; }
l() { n=$((n + 1)); grep -qxF "$(printf "$2")" "$1" || differs "line in $1"; }
d() { n=$((n + 1)); [ -d "$1" ] || differs "$1"; }
mt() { n=$((n + 1)); grep -qF " $1 " /proc/self/mountinfo || differs "$1"; }
g() { n=$((n + 1)); [ "$(git -C "$1" rev-parse HEAD)" = "$2" ] && [ -z "$(git -C "$1" status --porcelain --untracked-files=no)" ] || differs "$1"; }
SH
cat "$checks" >>"$ext/check.sh"
printf 'echo "checked=$n differ=$bad"\n[ "$bad" -eq 0 ]\n' >>"$ext/check.sh"
chmod 755 "$ext/check.sh"

export XDG_CONFIG_HOME="$ext/config"
"$here/bin/govern" run -q "$base" >/dev/null
"$here/bin/govern" run -q "$ext/policy" >/dev/null || true
"$here/bin/govern" run -q "$ext/policy"
"$floor" "$root/base/govern/tree" >/dev/null
"$ext/check.sh" "$root/base/govern/tree"
echo "base:     $here/bin/govern run -q $base   vs   $floor $root/base/govern/tree"
echo "extended: XDG_CONFIG_HOME=$ext/config $here/bin/govern run -q $ext/policy   vs   $ext/check.sh $root/base/govern/tree"
