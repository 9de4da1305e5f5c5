import { expect } from 'chai';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { DEBIAN_INVALID, DEBIAN_VECTORS, GENERIC_VECTORS, RPM_VECTORS } from '../support/version-vectors.js';

async function dpkgSays(a: string, b: string): Promise<number> {
  for (const [op, result] of [['lt', -1], ['eq', 0], ['gt', 1]] as const) {
    if ((await runCommand('dpkg', ['--compare-versions', a, op, b])).code === 0) return result;
  }
  throw new Error(`dpkg could not compare ${a} and ${b}`);
}

describe('govern versioncmp #once', () => {
  it('agrees with dpkg --compare-versions on the Debian vectors', async () => {
    for (const { a, b, expected } of DEBIAN_VECTORS) {
      const r = await govern(['versioncmp', '--scheme', 'debian', a, b]);
      expect(r.stdout, `${a} vs ${b}`).to.equal(`${await dpkgSays(a, b)}\n`);
      expect(r.stdout, `${a} vs ${b} (vector)`).to.equal(`${expected}\n`);
    }
  });

  it('compares rpm versions and the generic scheme (the default)', async () => {
    for (const { a, b, expected } of RPM_VECTORS.slice(0, 40)) {
      expect((await govern(['versioncmp', '--scheme', 'rpm', a, b])).stdout, `${a} vs ${b}`).to.equal(`${expected}\n`);
    }
    for (const { a, b, expected, ignoreTrailingZeroes } of GENERIC_VECTORS) {
      const flags = ignoreTrailingZeroes ? ['--ignore-trailing-zeroes'] : [];
      expect((await govern(['versioncmp', ...flags, a, b])).stdout, `${a} vs ${b}`).to.equal(`${expected}\n`);
    }
  });

  it('refuses an invalid version or scheme with a non-zero exit', async () => {
    for (const bad of DEBIAN_INVALID.slice(0, 5)) {
      const r = await govern(['versioncmp', '--scheme', 'debian', bad, '1.0']);
      expect(r.code, JSON.stringify(bad)).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.match(/^govern: /);
    }
    expect((await govern(['versioncmp', '--scheme', 'semver', '1', '2'])).stderr).to.contain('--scheme must be debian, rpm, generic, pacman or freebsd, not "semver"');
  });

  it('is a template helper too', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'facts', 'pkg', 'nginx'), '1.22.1-9');
    const t = writeFile(
      path.join(dir, 't'),
      '{{#if (lt (versioncmp (fact "pkg/nginx") "1.24") 0)}}old{{else}}new{{/if}} {{versioncmp "1:0.5" "2.0" scheme="debian"}}\n',
    );
    const r = await govern(['render', t, '--facts-dir', path.join(dir, 'facts')]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('old 1\n');
  });
});
