import { expect } from 'chai';
import path from 'node:path';
import { expandMembers, expandNames, readRecipients } from '../../src/secrets/recipients.js';
import { UserError } from '../../src/shared/errors.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { ageKey, sshKey } from './keys.js';

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e.message.split('\n');
    throw e;
  }
  throw new Error('no error');
}

describe('secrets: recipients.hcl #once', () => {
  it('reads hosts, people and groups, and expands groups to their members\' keys', () => {
    const dir = tempDir();
    const web1 = sshKey(dir, 'web1');
    const alice = ageKey(dir, 'alice');
    const file = writeFile(path.join(dir, 'recipients.hcl'), `hosts = {\n  web1 = "${web1.recipient}"\n}\npeople = { alice = "${alice.recipient}" }\ngroups = {\n  web = ["web1"]\n  admins = ["alice"]\n}\n`);
    const r = readRecipients(file);
    expect(expandNames(r, ['web', 'admins', 'web1'])).to.deep.equal([web1.recipient, alice.recipient]);
    expect(expandMembers(r, ['web', 'alice'])).to.deep.equal(['web1', 'alice']);
    expect(problems(() => expandNames(r, ['admin']))).to.deep.equal([`${file}: no host, person or group "admin" (did you mean "admins"?)`]);
  });

  it('reports every bad key and unknown name at its file and line', () => {
    const dir = tempDir();
    const file = writeFile(path.join(dir, 'recipients.hcl'), [
      'hosts = {',
      '  web1 = "ssh-ed25519 AAAAnotakey"',
      '  web2 = "ssh-rsa AAAAB3NzaC1yc2E"',
      '}',
      'people = { alice = "age1short" }',
      'groups = {',
      '  web = ["web1", "web3"]',
      '}',
      'hots = {}',
      '',
    ].join('\n'));
    expect(problems(() => readRecipients(file))).to.deep.equal([
      `${file}:2: hosts.web1: the key is not a valid ssh-ed25519 public key (the base64 part does not decode to one)`,
      `${file}:3: hosts.web2: the key is an SSH key of type ssh-rsa: age takes ssh-ed25519 (and ssh-rsa, which govern does not use) keys`,
      `${file}:5: people.alice: the key is neither an age key ("age1...", from age-keygen) nor an SSH ed25519 key ("ssh-ed25519 AAAA...")`,
      `${file}:9: unknown attribute "hots" (did you mean "hosts"?): recipients.hcl holds hosts = { ... }, people = { ... }, groups = { ... } and values = { ... }`,
      `${file}:7: groups.web: no host or person "web3" (did you mean "web1"?)`,
    ]);
  });
});
