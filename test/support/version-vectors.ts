// Version comparison test vectors, shared by the version module's unit tests and the CLI tests
// (`govern versioncmp`). Each group says where it comes from; the published ones were written
// out from those projects' test suites (the data, not their code).

export type Ordering = -1 | 0 | 1;

export interface VersionVector {
  a: string;
  b: string;
  /** compare(a, b) */
  expected: Ordering;
}

export interface GenericVector extends VersionVector {
  ignoreTrailingZeroes?: boolean;
}

function vectors(table: string): VersionVector[] {
  return table
    .trim()
    .split('\n')
    .map((line) => {
      const [a, b, expected] = line.trim().split(/\s+/);
      return { a, b, expected: Number(expected) as Ordering };
    });
}

// ---------------------------------------------------------------------------------------------
// Debian

/** package-type.txt, APT provider, "Comparison Examples". */
export const DEBIAN_SEED_VECTORS: VersionVector[] = vectors(`
  1.0        2.0        -1
  1:1.0      2.0         1
  1.0~alpha  1.0        -1
  1.0~alpha  1.0~beta   -1
  1.0.1      1.0.2      -1
  1.0-1      1.0-2      -1
  1.0~~      1.0~       -1
  1.0a       1.0+       -1
`);

/**
 * The seed's "1.0a < 1.0-" (letters sort before non-letters) is about the string comparison
 * applied to an upstream version or a revision, not about whole versions: as a whole version
 * "1.0-" has an empty revision, which dpkg rejects. So it is checked on the fragment comparison.
 */
export const DEBIAN_SEED_FRAGMENT_VECTORS: VersionVector[] = vectors(`
  1.0a       1.0-       -1
`);

/**
 * dpkg's own test suite, scripts/t/Dpkg_Version.t (its __DATA__ table, which that test also runs
 * through `dpkg --compare-versions`), https://git.dpkg.org/git/dpkg/dpkg.git. Its last row,
 * "-0.6.5 0.9.1 -1", is left out: dpkg 1.21 rejects "-0.6.5" (empty version number), so it is
 * in DEBIAN_INVALID below, and so are its
 * three rows with an empty revision ("0foo-"), which dpkg's C parser (and so `dpkg
 * --compare-versions`) rejects since lib/dpkg/t/t-version.c gained "Test empty revision in version".
 */
export const DPKG_PERL_VECTORS: VersionVector[] = vectors(`
  1.0-1 2.0-2 -1
  2.2~rc-4 2.2-1 -1
  2.2-1 2.2~rc-4 1
  1.0000-1 1.0-1 0
  1 0:1 0
  0 0:0-0 0
  2:2.5 1:7.5 1
  1:0foo 0foo 1
  0:0foo 0foo 0
  0foo 0foo 0
  0foo 0fo 1
  0foo~1 0foo -1
  0foo~foo+Bar 0foo~foo+bar -1
  0foo~~ 0foo~ -1
  1~ 1 -1
  12345+that-really-is-some-ver-0 12345+that-really-is-some-ver-10 -1
  0foo-0 0foo-01 -1
  0foo.bar 0foobar 1
  0foo.bar 0foo1bar 1
  0foo.bar 0foo0bar 1
  0foo1bar-1 0foobar-1 -1
  0foo2.0 0foo2 1
  0foo2.0.0 0foo2.10.0 -1
  0foo2.0 0foo2.0.0 -1
  0foo2.0 0foo2.10 -1
  0foo2.1 0foo2.10 -1
  1.09 1.9 0
  1.0.8+nmu1 1.0.8 1
  3.11 3.10+nmu1 1
  0.9j-20080306-4 0.9i-20070324-2 1
  1.2.0~b7-1 1.2.0~b6-1 1
  1.011-1 1.06-2 1
  0.0.9+dfsg1-1 0.0.8+dfsg1-3 1
  4.6.99+svn6582-1 4.6.99+svn6496-1 1
  53 52 1
  0.9.9~pre122-1 0.9.9~pre111-1 1
  2:2.3.2-2+lenny2 2:2.3.2-2 1
  1:3.8.1-1 3.8.GA-1 1
  1.0.1+gpl-1 1.0.1-2 1
  1a 1000a -1
`);

/**
 * dpkg's C test suite, lib/dpkg/t/t-version.c (at dpkg commit 84c9328e): test_version_compare (version objects written as
 * strings: epoch, upstream, revision) and test_version_parse (strings that parse to the same
 * version compare equal).
 */
export const DPKG_C_VECTORS: VersionVector[] = [
  // test_version_compare
  { a: '1-1', b: '2-1', expected: -1 },
  { a: '1-1', b: '1-2', expected: -1 },
  { a: '0-0', b: '0-0', expected: 0 },
  { a: '0-00', b: '00-0', expected: 0 },
  { a: '1:2-3', b: '1:2-3', expected: 0 },
  { a: '0-0', b: '1:0-0', expected: -1 },
  { a: '1:0-0', b: '0-0', expected: 1 },
  { a: 'a-0', b: 'b-0', expected: -1 },
  { a: 'b-0', b: 'a-0', expected: 1 },
  { a: '0-a', b: '0-b', expected: -1 },
  { a: '0-b', b: '0-a', expected: 1 },
  // test_version_parse: each string against the version object it must parse to
  { a: '0', b: '0:0', expected: 0 },
  { a: '0:0', b: '0', expected: 0 },
  { a: '0:0-0', b: '0-0', expected: 0 },
  { a: '0:0.0-0.0', b: '0.0-0.0', expected: 0 },
  { a: '1:0', b: '1:00', expected: 0 },
  { a: '5:1', b: '05:1', expected: 0 },
  { a: '0:0-0-0', b: '0-0-0', expected: 0 },
  { a: '0:0-0-0-0', b: '0-0-0-0', expected: 0 },
  { a: '0:0:0-0', b: '0:0:0-0', expected: 0 },
  { a: '0:0:0:0-0', b: '0:0:0:0-0', expected: 0 },
  { a: '0:0:0-0-0', b: '0:0:0-0-0', expected: 0 },
  { a: '0:0-0:0-0', b: '0:0-0:0-0', expected: 0 },
  { a: '0:09azAZ.-+~:-0', b: '00:09azAZ.-+~:-0', expected: 0 },
  { a: '0:0-azAZ09.+~', b: '0-azAZ09.+~', expected: 0 },
  { a: '  \t0:0-1', b: '0-1', expected: 0 },
  { a: '0:0-1\t  ', b: '0-1', expected: 0 },
  { a: '\t  0:0-1  \t', b: '0-1', expected: 0 },
];

export const DEBIAN_VECTORS: VersionVector[] = [...DEBIAN_SEED_VECTORS, ...DPKG_PERL_VECTORS, ...DPKG_C_VECTORS];

/**
 * Invalid Debian versions. From lib/dpkg/t/t-version.c (test_version_parse: empty, embedded
 * space, negative and huge epochs, bad epoch characters, empty upstream version, invalid
 * characters in the upstream version and in the revision, empty epoch, empty revision) and
 * scripts/t/Dpkg_Version.t ("10a:5.2", "5.2@3-2", and its "-0.6.5" and "0foo-" rows).
 */
export const DEBIAN_INVALID: string[] = [
  '',
  '  ',
  '0:',
  ':1.0',
  '1.0-',
  '0foo-',
  '0:0 0-1',
  '-1:0-1',
  '999999999999999999999999:0-1',
  'a:0-0',
  'A:0-0',
  '-0',
  '0:-0',
  '0:0-0:0',
  ...[...'!#@$%&/|\\<>()[]{};,_=*^\''].map((ch) => `0:0${ch}-0`),
  ...[...'!#@$%&/|\\<>()[]{}:;,_=*^\''].map((ch) => `0:0-${ch}`),
  '10a:5.2',
  '5.2@3-2',
  '-0.6.5',
];

// ---------------------------------------------------------------------------------------------
// RPM

/**
 * rpm's own test suite, tests/rpmvercmp.at (rpmvercmp(a, b) through Lua's rpm.vercmp),
 * https://github.com/rpm-software-management/rpm, including its tilde and caret cases.
 * The "oddities" it keeps commented out are left out here too.
 */
export const RPMVERCMP_VECTORS: VersionVector[] = vectors(`
  1.0 1.0 0
  1.0 2.0 -1
  2.0 1.0 1
  2.0.1 2.0.1 0
  2.0 2.0.1 -1
  2.0.1 2.0 1
  2.0.1a 2.0.1a 0
  2.0.1a 2.0.1 1
  2.0.1 2.0.1a -1
  5.5p1 5.5p1 0
  5.5p1 5.5p2 -1
  5.5p2 5.5p1 1
  5.5p10 5.5p10 0
  5.5p1 5.5p10 -1
  5.5p10 5.5p1 1
  10xyz 10.1xyz -1
  10.1xyz 10xyz 1
  xyz10 xyz10 0
  xyz10 xyz10.1 -1
  xyz10.1 xyz10 1
  xyz.4 xyz.4 0
  xyz.4 8 -1
  8 xyz.4 1
  xyz.4 2 -1
  2 xyz.4 1
  5.5p2 5.6p1 -1
  5.6p1 5.5p2 1
  5.6p1 6.5p1 -1
  6.5p1 5.6p1 1
  6.0.rc1 6.0 1
  6.0 6.0.rc1 -1
  10b2 10a1 1
  10a2 10b2 -1
  1.0aa 1.0aa 0
  1.0a 1.0aa -1
  1.0aa 1.0a 1
  10.0001 10.0001 0
  10.0001 10.1 0
  10.1 10.0001 0
  10.0001 10.0039 -1
  10.0039 10.0001 1
  4.999.9 5.0 -1
  5.0 4.999.9 1
  20101121 20101121 0
  20101121 20101122 -1
  20101122 20101121 1
  2_0 2_0 0
  2.0 2_0 0
  2_0 2.0 0
  a a 0
  a+ a+ 0
  a+ a_ 0
  a_ a+ 0
  +a +a 0
  +a _a 0
  _a +a 0
  +_ +_ 0
  _+ +_ 0
  _+ _+ 0
  + _ 0
  _ + 0
  1.0~rc1 1.0~rc1 0
  1.0~rc1 1.0 -1
  1.0 1.0~rc1 1
  1.0~rc1 1.0~rc2 -1
  1.0~rc2 1.0~rc1 1
  1.0~rc1~git123 1.0~rc1~git123 0
  1.0~rc1~git123 1.0~rc1 -1
  1.0~rc1 1.0~rc1~git123 1
  1.0^ 1.0^ 0
  1.0^ 1.0 1
  1.0 1.0^ -1
  1.0^git1 1.0^git1 0
  1.0^git1 1.0 1
  1.0 1.0^git1 -1
  1.0^git1 1.0^git2 -1
  1.0^git2 1.0^git1 1
  1.0^git1 1.01 -1
  1.01 1.0^git1 1
  1.0^20160101 1.0^20160101 0
  1.0^20160101 1.0.1 -1
  1.0.1 1.0^20160101 1
  1.0^20160101^git1 1.0^20160101^git1 0
  1.0^20160102 1.0^20160101^git1 1
  1.0^20160101^git1 1.0^20160102 -1
  1.0~rc1^git1 1.0~rc1^git1 0
  1.0~rc1^git1 1.0~rc1 1
  1.0~rc1 1.0~rc1^git1 -1
  1.0^git1~pre 1.0^git1~pre 0
  1.0^git1 1.0^git1~pre 1
  1.0^git1~pre 1.0^git1 -1
`);

/**
 * Whole epoch:version-release strings: the EVR examples of package-type.txt (DNF provider,
 * "Version Format") and the rules it states (higher epoch always wins; the release breaks a
 * tie; as in rpm.vercmp, a missing release sorts before any release).
 */
export const RPM_EVR_VECTORS: VersionVector[] = vectors(`
  5.8-9.el9 5.8-9.el9 0
  1:2.0-3.fc39 5.8-9.el9 1
  5.8-9.el9 1:2.0-3.fc39 -1
  0:1.0.0-1.el9 1.0.0-1.el9 0
  1.0.0-1.el9 1.0.0-2.el9 -1
  5.8-10.el9 5.8-9.el9 1
  1.0 1.0-5 -1
  1.0-5 1.0 1
  1.1 1.0-5 1
  2.0~rc1-1 2.0-1 -1
  1:0.5-1 2.0-1 1
  2:1 1:9 1
`);

export const RPM_VECTORS: VersionVector[] = [...RPMVERCMP_VECTORS, ...RPM_EVR_VECTORS];

export const RPM_INVALID: string[] = ['', '1.0-', '-1', '1:', '1.0 1', '1.0;rm', 'a:1.0', '1.0-1-$x', '1.0%{x}'];

// ---------------------------------------------------------------------------------------------
// Generic (Puppet-style VersionCmp)

/** package-type.txt, DNF provider, "Comparison Examples" (the generic algorithm). */
export const GENERIC_SEED_VECTORS: GenericVector[] = [
  { a: '1.0', b: '2.0', expected: -1 },
  { a: '1.10', b: '1.9', expected: 1 },
  { a: '1.0', b: '1.0.1', expected: -1 },
  { a: '1.0-1', b: '1.0-2', expected: -1 },
  { a: '1.0a', b: '1.0b', expected: -1 },
  { a: '01', b: '1', expected: -1 },
  { a: '1.0.0', b: '1.0', expected: 1 },
  { a: '1.0.0', b: '1.0', expected: 0, ignoreTrailingZeroes: true },
];

/** The seed's token rules, one case each: hyphen loses to anything, dot to anything but a hyphen. */
export const GENERIC_RULE_VECTORS: GenericVector[] = [
  { a: '1-1', b: '1.1', expected: -1 },
  { a: '1.1', b: '1-1', expected: 1 },
  { a: '1.1', b: '1a', expected: -1 },
  { a: '1-1', b: '1a', expected: -1 },
  { a: '1.0A', b: '1.0b', expected: -1 },
  { a: '1.0B', b: '1.0a', expected: 1 },
  // Letter runs compare ignoring case, and a tie there is final (Puppet returns it at once).
  { a: '1.0A', b: '1.0a', expected: 0 },
  // A leading zero makes digit runs compare as strings.
  { a: '010', b: '09', expected: -1 },
  { a: '1.02', b: '1.1', expected: -1 },
  { a: '2.0.0-rc1', b: '2-rc1', expected: 0, ignoreTrailingZeroes: true },
  { a: '2.0.0-rc1', b: '2-rc1', expected: 1 },
  { a: '1.10', b: '1.1', expected: 1, ignoreTrailingZeroes: true },
  { a: '1.0-1.0', b: '1-1', expected: 1, ignoreTrailingZeroes: true },
  { a: '18446744073709551617', b: '18446744073709551616', expected: 1 },
];

export const GENERIC_VECTORS: GenericVector[] = [...GENERIC_SEED_VECTORS, ...GENERIC_RULE_VECTORS];

/**
 * Puppet's spec/unit/util/package_spec.rb ("should be able to sort a long set of various
 * unordered versions"): the input, and the order versioncmp sorts it into.
 */
export const GENERIC_SORT_INPUT = '1.1.6 2.3 1.1a 3.0 1.5 1 2.4 1.1-4 2.3.1 1.2 2.3.0 1.1-3 2.4b 2.4 2.40.2 2.3a.1 3.1 0002 1.1-5 1.1.a 1.06'.split(' ');
export const GENERIC_SORTED = '0002 1 1.06 1.1-3 1.1-4 1.1-5 1.1.6 1.1.a 1.1a 1.2 1.5 2.3 2.3.0 2.3.1 2.3a.1 2.4 2.4 2.4b 2.40.2 3.0 3.1'.split(' ');
