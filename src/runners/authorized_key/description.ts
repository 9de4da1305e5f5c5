// What the authorized_key runner accepts, declared once: govern checks state files against it, and
// the runner reads its arguments with it (docs/authorized_key.md).
import type { RunnerDescription } from '../../shared/description.js';
import { ACCOUNT_CHARS } from '../lib/accounts/names.js';

/** The public key types OpenSSH's sshd(8) reads in authorized_keys. */
export const KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
  'ssh-dss',
] as const;

export const description = {
  help: 'one SSH public key in a user\'s ~/.ssh/authorized_keys, with the ownership and modes sshd\'s StrictModes wants',
  name: { type: 'string', pattern: '\\S+', what: 'a name without spaces', help: 'the key\'s name: its comment unless `comment` is given' },
  keys: {
    user: { type: 'string', chars: ACCOUNT_CHARS, what: 'a user name', required: true, help: 'whose ~/.ssh/authorized_keys' },
    type: { type: 'enum', values: KEY_TYPES, help: 'the key type, the first field of a .pub file' },
    key: { type: 'string', pattern: '[A-Za-z0-9+/]+={0,3}', what: 'the base64 of a public key (the second field of a .pub file)', help: 'the public key itself' },
    comment: { type: 'string', pattern: '[^\\n\\r]*', what: 'one line of text', help: 'the comment after the key; the resource name when not given' },
    options: {
      type: 'list',
      // sshd reads \" as a quote inside the value, also right before the closing quote: a value ending in
      // a backslash would run on past it, into the key sshd reads (docs/authorized_key.md, "Options").
      items: { type: 'string', pattern: '[^\\s,"\\\\]+(?:="(?:[^"\\n\\r]*[^"\\\\\\n\\r])?")?', what: 'an option such as no-pty or from="10.0.0.0/8" (a value without quotes, not ending in a backslash)' },
      help: 'the key\'s options (sshd(8), AUTHORIZED_KEYS FILE FORMAT), each as sshd reads it: no-pty, from="10.0.0.0/8"',
    },
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present, or absent: every line of this key is removed' },
    exclusive: { type: 'boolean', default: false, help: 'remove every other key from the file (Ansible\'s exclusive): the file holds this key alone' },
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['type', 'key'] },
    { when: { ensure: ['absent'] }, require: ['key'] },
    { only_when: { ensure: ['present'] }, keys: ['type', 'comment', 'options', 'exclusive'] },
  ],
  signals: ['refresh'],
  // The user's home as the accounts database gives it, looked up when a purge is called.
  writes: [{ path: '~{user}/.ssh/authorized_keys' }],
  autorequire: [
    // The user (and so its home) first; a user being removed goes after its keys.
    { runner: 'user', key: 'user', reverse_when_other: { ensure: ['absent'] } },
    // Each key reads what the one before it wrote: keys of one user never run at once.
    { runner: 'authorized_key', same_key: 'user' },
  ],
} as const satisfies RunnerDescription;
