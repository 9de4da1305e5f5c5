#!/bin/sh
# govern test of examples/web and of examples/fleet's web role (web1's snapshot), each paired round by
# round with `govern check` of the same tree (planning alone, no host), medians of ROUNDS (default 5).
# Both install packages from Debian's mirror, so they run with --network host: a host whose port 80
# is taken makes the web servers fail to start (the verdict is printed; the time is what is measured).
# With BASE (a root made by govern test --make-base), examples/web is also tested over it: a new
# server, lighttpd installed from the mirror in each round.
# usage (as root, after make build): bench/govern-test.sh [ROUNDS [BASE]] (ONLY_BASE=1: that row alone)
set -eu
rounds=${1:-5}
base=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
govern="$here/bin/govern"
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bench() { # NAME DIR CHECK-ARGS -- TEST-ARGS
  name=$1 dir=$2
  shift 2
  out=$(mktemp -d)
  (cd "$dir" && "$govern" test --network host "$@" >/dev/null 2>&1) || true # warm-up
  i=0
  while [ "$i" -lt "$rounds" ]; do
    t0=$(now)
    (cd "$dir" && "$govern" check . >/dev/null 2>&1) || true
    t1=$(now)
    status=0
    (cd "$dir" && "$govern" test --network host "$@" >"$out/verdict" 2>&1) || status=$?
    t2=$(now)
    echo "$t0 $t1 $t2 $status" | awk '{ printf "%.3f %.3f %.2f %s\n", $3 - $2, $2 - $1, ($3 - $2) / ($2 - $1), $4 }' >>"$out/rounds"
    i=$((i + 1))
  done
  test_s=$(cut -d' ' -f1 "$out/rounds" | median)
  check_s=$(cut -d' ' -f2 "$out/rounds" | median)
  ratio=$(cut -d' ' -f3 "$out/rounds" | median)
  exits=$(cut -d' ' -f4 "$out/rounds" | tr '\n' ' ')
  printf '| %s | %s s | %s s | %s | %s|\n' "$name" "$test_s" "$check_s" "$ratio" "$exits"
  tail -n 1 "$out/verdict" >&2
  rm -rf "$out"
}

echo "| $rounds rounds | govern test (median) | govern check (median) | test / check, per pair (median) | exit of each test |"
echo "|---|---:|---:|---:|---|"
[ -n "${ONLY_BASE:-}" ] || bench "examples/web" "$here/examples/web" .
[ -z "$base" ] || bench "examples/web over $base" "$here/examples/web" --base "$base" .
fleet="$here/examples/fleet"
[ -n "${ONLY_BASE:-}" ] || bench "examples/fleet, web1" "$fleet" --facts "$fleet/snapshots" --host web1 --identity "$fleet/test-keys/web1.TEST-ONLY.ssh_host_ed25519_key" .
