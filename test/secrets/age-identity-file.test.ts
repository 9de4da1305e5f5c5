// Which identity files govern reads itself (an unencrypted ed25519 SSH key, age-keygen's keys) and
// which it leaves to the age program, with real keys from ssh-keygen and age-keygen.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AgeFormatError, decryptAge } from '../../src/secrets/age-format.js';
import { readIdentityFile } from '../../src/secrets/age-identity-file.js';
import { tempDir } from '../support/tmp.js';
import { ageKey } from './keys.js';

describe('secrets: identity files read in process #once', () => {
  it('reads every key of an age identity file, around comments and blank lines', () => {
    const dir = tempDir();
    const first = ageKey(dir, 'first');
    const second = ageKey(dir, 'second');
    const both = path.join(dir, 'both.txt');
    fs.writeFileSync(both, `${fs.readFileSync(first.identity, 'utf8')}\n\n${fs.readFileSync(second.identity, 'utf8')}`);
    const ids = readIdentityFile(both);
    expect(ids).to.have.length(2);
    const file = execFileSync('age', ['--encrypt', '--recipient', second.recipient], { input: 'for the second' });
    expect(decryptAge(file, ids!).toString()).to.equal('for the second');
  });

  it('leaves to the age program an SSH key with a passphrase, an RSA key, and a plugin identity', () => {
    const dir = tempDir();
    const key = (name: string, args: string[]) => {
      const file = path.join(dir, name);
      execFileSync('ssh-keygen', ['-q', ...args, '-C', name, '-f', file], { stdio: 'ignore' });
      return file;
    };
    expect(readIdentityFile(key('locked', ['-t', 'ed25519', '-N', 'a passphrase']))).to.equal(undefined);
    expect(readIdentityFile(key('rsa', ['-t', 'rsa', '-b', '2048', '-N', '']))).to.equal(undefined);
    const plugin = path.join(dir, 'plugin.txt');
    fs.writeFileSync(plugin, 'AGE-PLUGIN-YUBIKEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ\n');
    expect(readIdentityFile(plugin)).to.equal(undefined);
  });

  it('refuses a mistyped age key with a clear error', () => {
    const dir = tempDir();
    const alice = ageKey(dir, 'alice');
    const line = fs.readFileSync(alice.identity, 'utf8').split('\n').find((l) => l.startsWith('AGE-SECRET-KEY-1'))!;
    const typo = `${line.slice(0, 30)}${line[30] === 'Q' ? 'P' : 'Q'}${line.slice(31)}`;
    fs.writeFileSync(alice.identity, `${typo}\n`);
    expect(() => readIdentityFile(alice.identity)).to.throw(AgeFormatError, /checksum is wrong/);
  });
});
