#!/bin/sh
# The no-change workload of bench/generate.ts (N=100, without its sysv services, as in
# bench/new-types.sh) and the same workload with 10 apt_repository and 10 dnf_repository resources
# added, the sh floor extended by the same checks (stat and sha256sum of each .sources file, key and
# .repo file). The apt sources and keys go to a directory of the bench's own through APT_CONFIG; the
# .repo files go to /etc/yum.repos.d, disabled (enabled = false: dnf never reads their metadata), and
# are removed by `clean`. It converges the two trees and prints the commands to time
# (bench/README.md, "The repository runners").
# usage: bench/repositories.sh [ROOT]   (as root, after make build); bench/repositories.sh clean [ROOT]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = clean ]; then
  root=${2:-/tmp/govern-bench-repositories}
  rm -f /etc/yum.repos.d/govern-bench-repo-*.repo
  # The directory too, when the bench made it and nothing else is in it.
  [ ! -e "$root/made-yum.repos.d" ] || rmdir /etc/yum.repos.d 2>/dev/null || true
  rm -rf "$root"
  exit 0
fi
root=${1:-/tmp/govern-bench-repositories}
rm -rf "$root"
mkdir -p "$root"
[ -d /etc/yum.repos.d ] || touch "$root/made-yum.repos.d"
node "$here/dist/bench/generate.js" --n 100 --root "$root/base" --tools govern,sh >/dev/null
base=$root/base/govern/policy
floor=$root/base/sh/policy/check.sh
mkdir -p "$root/base/govern/tree"
rm "$base/50-services.hcl"
sed -i '/^s /d' "$floor"

ext=$root/extended
apt=$ext/apt
mkdir -p "$ext/policy" "$apt/etc/apt/apt.conf.d" "$apt/etc/apt/preferences.d" "$apt/etc/apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial"
printf 'Dir::Etc "%s/etc/apt";\nDir::State::Lists "%s/lists";\nDir::Cache "%s/cache";\n' "$apt" "$apt" "$apt" >"$apt/apt.conf"
cp "$base"/*.hcl "$ext/policy/"
# One signing key, written inline by each source.
export GNUPGHOME="$ext/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'govern bench <bench@localhost>' ed25519 sign never 2>/dev/null
gpg --batch --armor --export >"$ext/key.asc"
hcl=$ext/policy/60-repositories.hcl
checks=$ext/repositories.checks
: >"$hcl"
: >"$checks"
ksha=$(sha256sum "$ext/key.asc" | cut -d' ' -f1)
for i in 1 2 3 4 5 6 7 8 9 10; do
  sources="$apt/etc/apt/sources.list.d/govern-bench-repo-$i.sources"
  key="$apt/etc/apt/keyrings/govern-bench-repo-$i.asc"
  cat >>"$hcl" <<HCL
apt_repository "govern-bench-repo-$i" {
  uris       = ["file:$ext/nowhere-$i"]
  suites     = ["bookworm"]
  components = ["main"]
  signed_by  = "$ext/key.asc"
}

dnf_repository "govern-bench-repo-$i" {
  baseurl = ["https://rpm.example.org/bench-$i"]
  enabled = false
}

HCL
  printf '# Written by govern (apt_repository "govern-bench-repo-%s"); a change made here is undone at its next run.\nTypes: deb\nURIs: file:%s/nowhere-%s\nSuites: bookworm\nComponents: main\nSigned-By: %s\n' "$i" "$ext" "$i" "$key" >"$ext/expected"
  printf 'f %s 644 %s\n' "$sources" "$(sha256sum "$ext/expected" | cut -d' ' -f1)" >>"$checks"
  printf 'f %s 644 %s\n' "$key" "$ksha" >>"$checks"
  printf '# Written by govern (dnf_repository "govern-bench-repo-%s"); a change made here is undone at its next run.\n[govern-bench-repo-%s]\nname=govern-bench-repo-%s\nbaseurl=https://rpm.example.org/bench-%s\nenabled=0\ngpgcheck=1\n' "$i" "$i" "$i" "$i" >"$ext/expected"
  printf 'f %s 644 %s\n' "/etc/yum.repos.d/govern-bench-repo-$i.repo" "$(sha256sum "$ext/expected" | cut -d' ' -f1)" >>"$checks"
done
rm "$ext/expected"
# The extended floor: the base checks, then the new files' checks.
sed -e '/^echo "checked=/,$d' "$floor" >"$ext/check.sh"
cat "$checks" >>"$ext/check.sh"
printf 'echo "checked=$n differ=$bad"\n[ "$bad" -eq 0 ]\n' >>"$ext/check.sh"
chmod 755 "$ext/check.sh"

# The first run would refresh the index of sources that do not exist: it is not asked to (no pkg
# resource uses the bench's apt), and the refresh left pending ends with the run.
export APT_CONFIG="$apt/apt.conf"
"$here/bin/govern" run -q "$base" >/dev/null
"$here/bin/govern" run -q "$ext/policy" >/dev/null || true
"$here/bin/govern" run -q "$ext/policy"
"$floor" "$root/base/govern/tree" >/dev/null
"$ext/check.sh" "$root/base/govern/tree"
echo "base:     $here/bin/govern run -q $base   vs   $floor $root/base/govern/tree"
echo "extended: APT_CONFIG=$apt/apt.conf $here/bin/govern run -q $ext/policy   vs   $ext/check.sh $root/base/govern/tree"
