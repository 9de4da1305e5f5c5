// pacman's version comparison against pacman's own `vercmp` (Debian's pacman-package-manager):
// the examples of vercmp(8) and pacman's own test list, then random versions built from the
// characters that matter (digits, letters, separators, epochs, pkgrels).
import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { compareVersions } from '../../../src/shared/version/index.js';
import { comparePacman } from '../../../src/shared/version/pacman.js';
import { runCommand } from '../../../src/shared/process.js';

const VECTORS: [string, string, -1 | 0 | 1][] = [
  ['1.5.0', '1.5.0', 0],
  ['1.5.1', '1.5.0', 1],
  ['1.5.1', '1.5', 1],
  ['1.5.0-1', '1.5.0-1', 0],
  ['1.5.0-1', '1.5.0-2', -1],
  ['1.5.0-1', '1.5.1-1', -1],
  ['1.5.0-2', '1.5.1-1', -1],
  ['1.5-1', '1.5', 0],
  ['1.5', '1.5-1', 0],
  ['1.5b-1', '1.5-1', -1],
  ['1.5b', '1.5', -1],
  ['1.5b', '1.5.1', -1],
  ['1.0a', '1.0alpha', -1],
  ['1.0alpha', '1.0b', -1],
  ['1.0b', '1.0beta', -1],
  ['1.0beta', '1.0rc', -1],
  ['1.0rc', '1.0', -1],
  ['1.5.a', '1.5', 1],
  ['1.5.b', '1.5.a', 1],
  ['1.5.1', '1.5.b', 1],
  ['1.5.b-1', '1.5.b', 0],
  ['1.5-1', '1.5.b', -1],
  ['1.0', '1.0.', -1],
  ['1.0..0', '1.0.0', 1],
  ['1.0~rc1', '1.0', 1],
  ['1:1.0', '1.0', 1],
  ['1:1.0', '2.0', 1],
  ['0:1.0', '1.0', 0],
  ['1:1.0-1', '1:1.0-2', -1],
  ['2.0-1', '2.0-1.1', -1],
  ['010', '10', 0],
  ['1.0a', '1.0.1', -1],
];

/** pacman's own vercmp on each pair, in one shell process: one answer per line. */
async function realVercmp(pairs: [string, string][]): Promise<number[]> {
  const r = await runCommand('sh', ['-c', 'while IFS=" " read -r a b; do vercmp "$a" "$b"; done'], { input: pairs.map(([a, b]) => `${a} ${b}\n`).join('') });
  expect(r.code, r.stderr).to.equal(0);
  return r.stdout.trim().split('\n').map(Number);
}

function randomVersion(random: () => number): string {
  const pick = (s: string) => s[Math.floor(random() * s.length)];
  let v = random() < 0.2 ? `${Math.floor(random() * 3)}:` : '';
  const length = 1 + Math.floor(random() * 6);
  for (let k = 0; k < length; k++) v += pick('0123456789abz._~+');
  if (random() < 0.5) v += `-${Math.floor(random() * 3)}${random() < 0.2 ? '.1' : ''}`;
  return v;
}

describe('pacman version comparison #once', () => {
  let haveVercmp = false;
  before(async () => {
    haveVercmp = (await runCommand('sh', ['-c', 'command -v vercmp'])).code === 0;
  });

  it('orders vercmp(8)\'s examples and the pkgrel, epoch and separator rules', () => {
    const wrong = VECTORS.filter(([a, b, expected]) => comparePacman(a, b) !== expected || comparePacman(b, a) !== -expected);
    expect(wrong).to.deep.equal([]);
  });

  it('agrees with the real vercmp on those examples', async function () {
    if (!haveVercmp) this.skip();
    const answers = await realVercmp(VECTORS.map(([a, b]) => [a, b]));
    expect(answers).to.deep.equal(VECTORS.map(([, , expected]) => expected));
  });

  it('agrees with the real vercmp on 2,000 random pairs', async function () {
    if (!haveVercmp) this.skip();
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pairs: [string, string][] = [];
    for (let k = 0; k < 2000; k++) pairs.push([randomVersion(random), randomVersion(random)]);
    const answers = await realVercmp(pairs);
    const disagreements = pairs.filter(([a, b], k) => comparePacman(a, b) !== answers[k]).map(([a, b]) => `${a} vs ${b}: vercmp says ${answers[pairs.findIndex((p) => p[0] === a && p[1] === b)]}`);
    expect(disagreements).to.deep.equal([]);
  });

  it('refuses what makepkg cannot make, naming the part, as the pacman scheme of versioncmp', () => {
    expect(() => compareVersions('pacman', '1.0-1', '1.0 1')).to.throw(UserError, /invalid pacman version "1.0 1"/);
    expect(() => compareVersions('pacman', '1.0-x', '1')).to.throw(UserError, /pkgrel "x" must be a number/);
    expect(() => compareVersions('pacman', '1:', '1')).to.throw(UserError, /pkgver "" must be non-empty/);
    expect(compareVersions('pacman', '1:1.0-1', '2.0-1')).to.equal(1);
  });
});
