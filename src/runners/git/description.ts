// What the git runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/git.md).
import type { RunnerDescription } from '../../shared/description.js';
import { ACCOUNT_CHARS } from '../lib/accounts/names.js';
import { PLACED } from '../lib/file/placed.js';

export const description = {
  help: 'a git checkout: cloned, at a branch, tag or commit, local changes reported',
  name: { type: 'path', clean: true, pattern: '/.+', what: 'a clean absolute path, not /', help: 'the checkout\'s directory' },
  keys: {
    ensure: { type: 'enum', values: ['present', 'latest'], default: 'present', help: 'present: cloned, at revision (a branch is not followed once there); latest: a branch is followed to the remote\'s tip every run' },
    source: { type: 'string', pattern: '[^-\\s][^\\s]*', what: 'a repository URL or path, without blanks, not starting with -', required: true, help: 'the repository (any URL git clone takes, or a path)' },
    revision: { type: 'string', pattern: '[A-Za-z0-9._@+][A-Za-z0-9._/@+-]*', what: 'a branch, tag or commit id, not starting with - or /', help: 'the branch, tag or commit to check out; by default the remote\'s default branch' },
    user: { type: 'string', chars: ACCOUNT_CHARS, what: 'a user name', help: 'run git as this user (runuser), who then owns the checkout' },
    depth: { type: 'integer', min: 1, help: 'a shallow clone of this many commits (git clone --depth)' },
    force: { type: 'boolean', default: false, help: 'discard local changes to tracked files when the revision moves' },
    allowed_signers: {
      type: 'path',
      help: 'move the checkout only to a commit signed by a key of this file (ssh-keygen\'s allowed signers format), as govern pull --allowed-signers',
    },
  },
  signals: ['refresh'],
  autorequire: [...PLACED, { runner: 'user', key: 'user' }],
} as const satisfies RunnerDescription;
