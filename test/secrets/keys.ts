// Real keys for the secrets tests: an age identity from age-keygen and an ed25519 SSH key pair
// (as a host's /etc/ssh/ssh_host_ed25519_key) from ssh-keygen.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface TestKey {
  /** The private key file, as --identity takes it. */
  identity: string;
  /** The public key, as recipients.hcl names it. */
  recipient: string;
}

export function ageKey(dir: string, name: string): TestKey {
  const identity = path.join(dir, `${name}.agekey`);
  execFileSync('age-keygen', ['-o', identity], { stdio: 'ignore' });
  const recipient = execFileSync('age-keygen', ['-y', identity], { encoding: 'utf8' }).trim();
  return { identity, recipient };
}

export function sshKey(dir: string, name: string): TestKey {
  const identity = path.join(dir, `${name}_ed25519_key`);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', identity], { stdio: 'ignore' });
  const recipient = fs.readFileSync(`${identity}.pub`, 'utf8').trim();
  return { identity, recipient };
}
