// A FAKE of FreeBSD's pkg(8), for the pkgng provider: no FreeBSD pkg runs on Debian
// (docs/portability.md). It accepts exactly the commands the provider is written to send, in the
// syntax pkg's manual pages give them, and refuses anything else with a usage error (exit 64), so
// the provider's argv is pinned:
//   pkg info -e NAME          exit 0 when NAME is installed, 1 when not, nothing printed (pkg-info(8))
//   pkg query %v NAME         the installed version (pkg-query(8)); exit 1 when not installed
//   pkg rquery -U %v NAME     the version each repository offers, a line each (pkg-rquery(8)); exit 1 when none
//   pkg install -y [-f] NAME  installs (or upgrades to) what the repository offers; -f reinstalls it (pkg-install(8))
//   pkg upgrade -y NAME       upgrades NAME when the repository offers a newer version (pkg-upgrade(8))
//   pkg delete -y NAME        removes NAME (pkg-delete(8))
// The package database is a directory of files, installed/NAME holding the version; the repository
// is repo/NAME, one version a line (the first is what install takes). Each call is logged as
// `pkg [ARG]...`. Versions are compared by the epoch after `,`, then `sort -V`, enough for the
// versions the tests use.
import fs from 'node:fs';
import path from 'node:path';
import { FakePrograms, LOG_CALL } from '../../support/fake-programs.js';

const PKG = `#!/bin/sh
# FAKE FreeBSD pkg (test/runners/pkg/fake-pkgng.ts)
${LOG_CALL}log_call "$@"
usage() { echo "pkg (fake): usage: $*" >&2; exit 64; }
db=$FAKE_DIR/installed repo=$FAKE_DIR/repo
name_ok() { case $1 in ''|-*|*/*) usage "a package name, not '$1'" ;; esac; }
offered() { [ -s "$repo/$1" ] && head -n 1 "$repo/$1"; }
epoch() { case $1 in *,*) echo "\${1##*,}" ;; *) echo 0 ;; esac; }
newer() {
  [ "$(epoch "$1")" -ne "$(epoch "$2")" ] && { [ "$(epoch "$1")" -gt "$(epoch "$2")" ]; return; }
  [ "$1" != "$2" ] && [ "$(printf '%s\\n%s\\n' "\${1%,*}" "\${2%,*}" | sort -V | tail -n 1)" = "\${1%,*}" ]
}
case "$1 $2 $3" in
  "info -e "*) [ $# -eq 3 ] || usage "info -e NAME"; name_ok "$3"; [ -f "$db/$3" ] ;;
  "query %v "*) [ $# -eq 3 ] || usage "query %v NAME"; name_ok "$3"; [ -f "$db/$3" ] && cat "$db/$3" ;;
  "rquery -U %v") [ $# -eq 4 ] || usage "rquery -U %v NAME"; name_ok "$4"; [ -s "$repo/$4" ] && cat "$repo/$4" ;;
  "install -y "*|"install -f -y")
    force=; [ "$2" = -f ] && force=1 && shift
    [ $# -eq 3 ] && [ "$2" = -y ] || usage "install [-f] -y NAME"; name_ok "$3"
    v=$(offered "$3") || { echo "pkg: No packages available to install matching '$3' have been found in the repositories" >&2; exit 1; }
    if [ -f "$db/$3" ] && [ -z "$force" ] && ! newer "$v" "$(cat "$db/$3")"; then echo "The most recent versions of packages are already installed"; exit 0; fi
    echo "$v" > "$db/$3"; echo "Installing $3-$v" ;;
  "upgrade -y "*)
    [ $# -eq 3 ] || usage "upgrade -y NAME"; name_ok "$3"
    [ -f "$db/$3" ] || { echo "pkg: No package(s) matching $3" >&2; exit 1; }
    v=$(offered "$3") && newer "$v" "$(cat "$db/$3")" && { echo "$v" > "$db/$3"; echo "Upgrading $3 to $v"; exit 0; }
    echo "Your packages are up to date." ;;
  "delete -y "*)
    [ $# -eq 3 ] || usage "delete -y NAME"; name_ok "$3"
    [ -f "$db/$3" ] || { echo "pkg: No packages matched for pattern '$3'" >&2; exit 1; }
    rm "$db/$3"; echo "Deinstalling $3" ;;
  *) usage "$*" ;;
esac
`;

export class FakePkgng extends FakePrograms {
  constructor() {
    super('govern-fake-pkgng-', ['installed', 'repo']);
    this.program('pkg', PKG);
  }

  /** The environment with the fake first on PATH. */
  get env(): NodeJS.ProcessEnv {
    return this.fakeEnv();
  }

  /** What the repositories offer, a version each (the first is what install takes). */
  offer(name: string, ...versions: string[]): void {
    fs.writeFileSync(path.join(this.dir, 'repo', name), versions.map((v) => `${v}\n`).join(''));
  }

  installed(name: string): string | undefined {
    const file = path.join(this.dir, 'installed', name);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined;
  }
}
