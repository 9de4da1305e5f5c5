import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AgeError, decrypt, encrypt } from '../../src/secrets/age.js';
import { formatEncrypted, parseEncrypted } from '../../src/secrets/format.js';
import { tempDir } from '../support/tmp.js';
import { ageKey, sshKey } from './keys.js';

describe('secrets: age encryption and the ENC[age,...] format #once', () => {
  const secret = 'correct horse\nbattery "staple" é';

  it('a value govern encrypted is decrypted by the age program, for an age key and an SSH host key', () => {
    const dir = tempDir();
    const alice = ageKey(dir, 'alice');
    const web1 = sshKey(dir, 'web1');
    const text = formatEncrypted({ to: ['web1', 'alice'], ciphertext: encrypt(secret, [web1.recipient, alice.recipient]) });
    expect(text).to.match(/^ENC\[age,to=web1\+alice,[A-Za-z0-9+/=]+\]$/);
    const file = path.join(dir, 'value.age');
    fs.writeFileSync(file, parseEncrypted(text).ciphertext);
    for (const key of [alice, web1]) {
      expect(execFileSync('age', ['--decrypt', '--identity', key.identity, file], { encoding: 'utf8' })).to.equal(secret);
    }
  });

  it('a value the age program encrypted is read by govern, and a key not among its recipients is refused', () => {
    const dir = tempDir();
    const web1 = sshKey(dir, 'web1');
    const web2 = sshKey(dir, 'web2');
    const ciphertext = execFileSync('age', ['--encrypt', '--recipient', web1.recipient], { input: secret });
    const parsed = parseEncrypted(formatEncrypted({ to: ['web1'], ciphertext }));
    expect(parsed.to).to.deep.equal(['web1']);
    expect(decrypt(parsed.ciphertext, web1.identity)).to.equal(secret);
    expect(() => decrypt(parsed.ciphertext, web2.identity)).to.throw(AgeError, /no identity matched/);
  });

  it('an identity read in process and one only the age program reads (an RSA key) both decrypt; a missing identity file is named', () => {
    const dir = tempDir();
    const web1 = sshKey(dir, 'web1');
    const rsa = path.join(dir, 'rsa_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-C', 'rsa', '-f', rsa], { stdio: 'ignore' });
    const ciphertext = encrypt(secret, [web1.recipient, fs.readFileSync(`${rsa}.pub`, 'utf8').trim()]);
    expect(decrypt(ciphertext, web1.identity)).to.equal(secret);
    expect(decrypt(ciphertext, rsa)).to.equal(secret);
    expect(() => decrypt(ciphertext, path.join(dir, 'none'))).to.throw(AgeError, /^reading the identity file: ENOENT/);
  });

  it('a malformed ENC[ value is an error that says the form', () => {
    expect(() => parseEncrypted('ENC[age,web1,AAAA]')).to.throw(/ENC\[age,to=NAME\+NAME,BASE64\]/);
  });
});
