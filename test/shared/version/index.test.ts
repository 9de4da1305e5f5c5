import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { compareVersions, type VersionScheme } from '../../../src/shared/version/index.js';
import { runCommand } from '../../../src/shared/process.js';
import { compareDebianFragment } from '../../../src/shared/version/debian.js';
import {
  DEBIAN_INVALID,
  DEBIAN_SEED_FRAGMENT_VECTORS,
  DEBIAN_SEED_VECTORS,
  DEBIAN_VECTORS,
  DPKG_C_VECTORS,
  DPKG_PERL_VECTORS,
  GENERIC_SEED_VECTORS,
  GENERIC_SORT_INPUT,
  GENERIC_SORTED,
  GENERIC_VECTORS,
  RPM_EVR_VECTORS,
  RPM_INVALID,
  RPM_VECTORS,
  RPMVERCMP_VECTORS,
  type GenericVector,
  type VersionVector,
} from '../../support/version-vectors.js';

function checkAll(scheme: VersionScheme, table: GenericVector[]): void {
  const wrong = table
    .map((v) => ({ ...v, got: compareVersions(scheme, v.a, v.b, { ignoreTrailingZeroes: v.ignoreTrailingZeroes }) }))
    .filter((v) => v.got !== v.expected)
    .map((v) => `${JSON.stringify(v.a)} vs ${JSON.stringify(v.b)}: expected ${v.expected}, got ${v.got}`);
  expect(wrong).to.deep.equal([]);
}

/** Each vector turned around must give the opposite answer. */
function reversed(table: VersionVector[]): GenericVector[] {
  return table.map((v) => ({ ...v, a: v.b, b: v.a, expected: (0 - v.expected) as -1 | 0 | 1 }));
}

function which(command: string): Promise<boolean> {
  return runCommand('sh', ['-c', 'command -v "$1"', 'sh', command]).then((r) => r.code === 0);
}

describe('version comparison #once', () => {
  describe('debian', () => {
    it('orders the seed\'s examples', () => checkAll('debian', DEBIAN_SEED_VECTORS));
    it('sorts letters before non-letters inside a fragment, as the seed\'s "1.0a < 1.0-" says', () => {
      for (const v of DEBIAN_SEED_FRAGMENT_VECTORS) expect(compareDebianFragment(v.a, v.b)).to.equal(v.expected);
    });
    it('passes dpkg\'s scripts/t/Dpkg_Version.t vectors, both ways round', () => {
      checkAll('debian', DPKG_PERL_VECTORS);
      checkAll('debian', reversed(DPKG_PERL_VECTORS));
    });
    it('passes dpkg\'s lib/dpkg/t/t-version.c vectors', () => {
      checkAll('debian', DPKG_C_VECTORS);
      checkAll('debian', reversed(DPKG_C_VECTORS));
    });
    it('refuses invalid versions with UserError', () => {
      for (const bad of DEBIAN_INVALID) {
        expect(() => compareVersions('debian', bad, '1.0'), JSON.stringify(bad)).to.throw(UserError);
        expect(() => compareVersions('debian', '1.0', bad), JSON.stringify(bad)).to.throw(UserError);
      }
    });
    it('says what is wrong with an invalid version', () => {
      expect(() => compareVersions('debian', 'a:1', '1')).to.throw(/invalid Debian version "a:1": the epoch "a"/);
      expect(() => compareVersions('debian', '1.0;x', '1')).to.throw(/character ";" is not allowed in the upstream version/);
      expect(() => compareVersions('debian', '1.0-1_2', '1')).to.throw(/character "_" is not allowed in the revision/);
      expect(() => compareVersions('debian', '99999999999:1', '1')).to.throw(/epoch 99999999999 is too big/);
    });
    it('accepts an upstream version that does not start with a digit, as dpkg does', () => {
      expect(compareVersions('debian', '0:abc3-0', 'abc3-0')).to.equal(0);
    });

    it('agrees with dpkg --compare-versions on every vector', async function () {
      if (!(await which('dpkg'))) this.skip();
      const disagreements: string[] = [];
      for (const v of DEBIAN_VECTORS) {
        const lt = await runCommand('dpkg', ['--compare-versions', '--', v.a, 'lt', v.b]);
        const gt = await runCommand('dpkg', ['--compare-versions', '--', v.a, 'gt', v.b]);
        expect(lt.code, lt.stderr).to.be.oneOf([0, 1]);
        const dpkg = lt.code === 0 ? -1 : gt.code === 0 ? 1 : 0;
        if (dpkg !== compareVersions('debian', v.a, v.b)) disagreements.push(`${v.a} vs ${v.b}: dpkg says ${dpkg}`);
      }
      expect(disagreements).to.deep.equal([]);
    });

    it('rejects what dpkg --compare-versions rejects as bad syntax', async function () {
      if (!(await which('dpkg'))) this.skip();
      // dpkg takes "" for "no version", lower than any; govern refuses it.
      for (const bad of DEBIAN_INVALID.filter((v) => v !== '')) {
        const r = await runCommand('dpkg', ['--compare-versions', '--', bad, 'lt', '1.0']);
        // dpkg errors (exit 2) on some and only warns on others (invalid characters, which Policy forbids).
        if (r.code === 2) expect(r.stderr, bad).to.match(/bad syntax/);
        else expect(r.stderr, bad).to.match(/warning: .*bad syntax/);
      }
    });
  });

  describe('rpm', () => {
    it('passes rpm\'s tests/rpmvercmp.at vectors, tilde and caret included', () => checkAll('rpm', RPMVERCMP_VECTORS));
    it('compares epoch, version and release', () => {
      checkAll('rpm', RPM_EVR_VECTORS);
      checkAll('rpm', reversed(RPM_EVR_VECTORS));
    });
    it('refuses invalid versions with UserError', () => {
      for (const bad of RPM_INVALID) {
        expect(() => compareVersions('rpm', bad, '1.0'), JSON.stringify(bad)).to.throw(UserError);
      }
      expect(() => compareVersions('rpm', '1.0-', '1')).to.throw(/the release after "-" is empty/);
      expect(() => compareVersions('rpm', '1 0', '1')).to.throw(/the character " "/);
    });

    it('agrees with rpm\'s own rpm.vercmp (Lua) on every vector', async function () {
      if (!(await which('rpm'))) this.skip();
      // One rpm process for all vectors: print each answer on its own line.
      const calls = RPM_VECTORS.map((v) => `print(rpm.vercmp(${luaString(v.a)}, ${luaString(v.b)})) print("\\n")`).join(' ');
      const r = await runCommand('rpm', ['--eval', `%{lua: ${calls}}`]);
      expect(r.code, r.stderr).to.equal(0);
      const answers = r.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '').map(Number);
      expect(answers).to.have.length(RPM_VECTORS.length);
      const disagreements = RPM_VECTORS.filter((v, k) => answers[k] !== compareVersions('rpm', v.a, v.b)).map(
        (v) => `${v.a} vs ${v.b}: rpm says ${answers[RPM_VECTORS.indexOf(v)]}`,
      );
      expect(disagreements).to.deep.equal([]);
    });
  });

  describe('generic', () => {
    it('orders the seed\'s examples', () => checkAll('generic', GENERIC_SEED_VECTORS));
    it('follows the hyphen, dot, leading-zero and case rules', () => checkAll('generic', GENERIC_VECTORS));
    it('sorts Puppet\'s spec/unit/util/package_spec.rb list as Puppet does', () => {
      const sorted = [...GENERIC_SORT_INPUT].sort((a, b) => compareVersions('generic', a, b));
      expect(sorted).to.deep.equal(GENERIC_SORTED);
    });
    it('refuses an empty version', () => {
      expect(() => compareVersions('generic', '', '1')).to.throw(UserError);
    });
  });

  it('ignores trailing zeroes only in the generic scheme', () => {
    expect(() => compareVersions('debian', '1.0', '1', { ignoreTrailingZeroes: true })).to.throw(UserError, /generic scheme only/);
    expect(() => compareVersions('rpm', '1.0', '1', { ignoreTrailingZeroes: true })).to.throw(UserError);
    expect(compareVersions('debian', '1.0', '1', { ignoreTrailingZeroes: false })).to.equal(1);
  });

  it('refuses an unknown scheme', () => {
    expect(() => compareVersions('semver' as VersionScheme, '1', '2')).to.throw(UserError, /unknown version scheme "semver"/);
  });
});

function luaString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
