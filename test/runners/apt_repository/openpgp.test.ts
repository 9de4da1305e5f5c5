// The key checks apt_repository makes before apt trusts a key: fingerprints computed as gpg computes
// them, armored and binary keys, a keyring of two keys, and what is refused.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { normalizeFingerprint, readKeyFile } from '../../../src/runners/apt_repository/openpgp.js';
import { have } from '../pkg/repos.js';
import { makeKey, removeKeys, type TestKey } from './signed-repo.js';

describe('apt_repository: OpenPGP keys #once', function () {
  this.timeout(60_000);
  let a: TestKey;
  let b: TestKey;
  const gpg = (key: TestKey, args: string[]): Buffer => execFileSync('gpg', ['--batch', ...args], { env: { ...process.env, GNUPGHOME: key.home } });

  before(async function () {
    if (!(await have('gpg'))) this.skip();
    [a, b] = [await makeKey('govern-pgp-a'), await makeKey('govern-pgp-b')];
  });

  after(() => removeKeys(a, b));

  it('gives the fingerprint gpg gives, for the armored key and the binary one', async () => {
    expect(readKeyFile(Buffer.from(a.armored), 'k')).to.deep.equal({ armored: true, fingerprints: [a.fingerprint] });
    const binary = gpg(a, ['--export', a.fingerprint]);
    expect(readKeyFile(binary, 'k')).to.deep.equal({ armored: false, fingerprints: [a.fingerprint] });
  });

  it('reads every primary key of a file of two', () => {
    const binary = Buffer.concat([gpg(a, ['--export', a.fingerprint]), gpg(b, ['--export', b.fingerprint])]);
    expect(readKeyFile(binary, 'k').fingerprints).to.deep.equal([a.fingerprint, b.fingerprint]);
  });

  it('reads every armor block of a file, as apt and gpg do: a second block cannot bring a key unchecked', () => {
    const two = Buffer.from(`${a.armored}${b.armored}`);
    const shown = execFileSync('gpg', ['--batch', '--show-keys', '--with-colons'], { input: two, env: { ...process.env, GNUPGHOME: a.home } })
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('fpr:'))
      .map((l) => l.split(':')[9]);
    expect(readKeyFile(two, 'k')).to.deep.equal({ armored: true, fingerprints: [a.fingerprint, b.fingerprint] });
    expect(shown).to.include.members([a.fingerprint, b.fingerprint]);
    // A block of another type is decoded by apt all the same (apt-key's dearmor takes every BEGIN).
    const disguised = Buffer.from(`${a.armored}${b.armored.replace(/PUBLIC KEY BLOCK/g, 'MESSAGE')}`);
    expect(readKeyFile(disguised, 'k').fingerprints).to.deep.equal([a.fingerprint, b.fingerprint]);
  });

  it('reads an armor block as apt does: a line before its empty line is a header, never data that could hide a key inside another packet', () => {
    // The first line, read as data, would be the header of a user ID packet holding all of b's key.
    const hidden = gpg(b, ['--export', b.fingerprint]);
    const length = hidden.length - 192;
    const header = Buffer.from([0xcd, (length >> 8) + 192, length & 0xff]).toString('base64');
    const wrapped = hidden.toString('base64').replace(/.{1,64}/g, (l) => `${l}\n`);
    const crafted = Buffer.from(`${a.armored}-----BEGIN PGP PUBLIC KEY BLOCK-----\n${header}\n\n${wrapped}-----END PGP PUBLIC KEY BLOCK-----\n`);
    expect(readKeyFile(crafted, 'k').fingerprints).to.deep.equal([a.fingerprint, b.fingerprint]);
    expect(() => readKeyFile(Buffer.from(a.armored.replace(/^/gm, '  ')), 'k')).to.throw('k: no armor block begins at the start of a line');
  });

  it('refuses a secret key, armored or not, and what is not a key', async () => {
    const armored = gpg(a, ['--armor', '--export-secret-keys', a.fingerprint]);
    expect(() => readKeyFile(armored, 'k')).to.throw('k holds a secret key: give the public key only');
    const binary = gpg(a, ['--export-secret-keys', a.fingerprint]);
    expect(() => readKeyFile(binary, 'k')).to.throw('k holds a secret key');
    expect(() => readKeyFile(Buffer.from('hello\n'), 'k')).to.throw('k is not an OpenPGP key (a malformed packet at byte 0)');
    expect(() => readKeyFile(Buffer.from(a.armored.replace(/-----END[\s\S]*/, '')), 'k')).to.throw('the armored key has no');
  });

  it('writes a fingerprint the way gpg prints it as hex alone', () => {
    expect(normalizeFingerprint('0x833e F205 64BA B6AB 2A82  7AD1 BBD1 14D4 5EBC 838C')).to.equal('833EF20564BAB6AB2A827AD1BBD114D45EBC838C');
  });
});
