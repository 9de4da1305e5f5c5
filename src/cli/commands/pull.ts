// `govern pull REPO [DIR]`: DIR (by default the tree govern run applies) to a commit of REPO, signed
// by an allowed key when --allowed-signers is given (pull/pull.ts).
import { defaultStateTree } from '../../config/paths.js';
import { pull } from '../../pull/pull.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-index.js';
import { defineCommand, out } from '../command.js';
import { helpOptions, varDirOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const pullCommand = defineCommand({
  ...described('pull'),
  details:
    `DIR defaults to the state tree govern run applies without PATH, ${defaultStateTree()}.\n` +
    'DIR becomes a symlink to a checked-out tree kept in VAR_DIR/pull/, switched in one rename: a run\n' +
    'sees the old commit or the new one, never a mix. Prints the old and the new commit. A fetch that\n' +
    'fails, or a commit refused by --allowed-signers, leaves DIR as it was and exits 1.',
  options: optionTable([
    { name: 'ref', kind: 'text', placeholder: 'REF', env: 'GOVERN_PULL_REF', help: "the branch or tag to pull (default: the repository's default branch)" },
    {
      name: 'allowed-signers',
      kind: 'text',
      placeholder: 'FILE',
      env: 'GOVERN_ALLOWED_SIGNERS',
      help: "accept only a commit with a good SSH signature by a key in FILE (ssh-keygen's allowed signers format)",
    },
    { name: 'timeout', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_PULL_TIMEOUT', default: '10m', help: 'give up on git after this long' },
    ...varDirOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    if (operands.length < 1 || operands.length > 2) throw new UserError(`expected REPO and optionally DIR (usage: ${this.usage})`);
    const [repo, dir = defaultStateTree()] = operands;
    const result = await pull({ repo, dir, ref: o.ref, allowedSigners: o.allowedSigners, varDir: o.varDir, timeoutMs: o.timeout, env: process.env });
    const signed = result.signer !== undefined ? ` (signed by ${result.signer})` : '';
    await out(result.old === result.commit ? `${result.dir}: already at ${result.commit}${signed}\n` : `${result.dir}: ${result.old ?? 'none'} -> ${result.commit}${signed}\n`);
    return 0;
  },
});
