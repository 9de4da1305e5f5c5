// `govern pull REPO [DIR]`: DIR (by default the tree govern run applies) to a commit of REPO, signed
// by an allowed key when --allowed-signers is given (pull/pull.ts). Every pull's outcome is recorded
// for `govern status` (record/recorded-pull.ts), a refused one too.
import { defaultStateTree } from '../../config/paths.js';
import type { PullRequest } from '../../pull/pull.js';
import { recordedPull } from '../../record/recorded-pull.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, warn } from '../../output/writers.js';
import { factsOptions, helpOptions, varDirOptions } from '../common-options.js';
import { fleetHostName, fleetOptions, fleetSettings } from '../fleet-options.js';
import type { StageGate } from '../../pull/stage-gate.js';
import { optionTable } from '../options.js';

export const pullCommand = defineCommand({
  ...described('pull'),
  details:
    `DIR defaults to the state tree govern run applies without PATH, ${defaultStateTree()}.\n` +
    'DIR becomes a symlink to a checked-out tree kept in VAR_DIR/pull/, switched in one rename: a run\n' +
    'sees the old commit or the new one, never a mix. Prints the old and the new commit. A fetch that\n' +
    'fails, or a commit refused, leaves DIR as it was and exits 1. A commit must descend from the one\n' +
    'DIR is at (and from --anchor); with --allowed-signers and --ref, its signed message must name the\n' +
    'ref in a "Govern-Ref: REF" trailer. Each pull is recorded in VAR_DIR/last-pull.json for govern status.\n' +
    'A commit whose tree has rollout.hcl rolls out in stages: it is held (DIR stays, exit 0) until the\n' +
    "hosts of the earlier stages hold it healthy in the fleet's KV, and refused when a host reverted it\n" +
    '(docs/rollout-stages.md); such a tree needs --fleet-url.',
  options: optionTable([
    { name: 'ref', kind: 'text', placeholder: 'REF', env: 'GOVERN_PULL_REF', help: "the branch or tag to pull (default: the repository's default branch)" },
    {
      name: 'allowed-signers',
      kind: 'text',
      placeholder: 'FILE',
      env: 'GOVERN_ALLOWED_SIGNERS',
      help: "accept only a commit with a good SSH signature by a key in FILE (ssh-keygen's allowed signers format)",
    },
    { name: 'anchor', kind: 'text', placeholder: 'COMMIT', env: 'GOVERN_PULL_ANCHOR', help: 'accept only a commit that descends from COMMIT (what protects the first pull)' },
    { name: 'allow-rollback', kind: 'flag', help: "accept a commit that does not descend from DIR's (going back; logged as a warning and recorded)" },
    {
      name: 'revert-on-failure',
      kind: 'flag',
      env: 'GOVERN_PULL_REVERT_ON_FAILURE',
      help: "mark DIR: if the next govern run of its new commit fails (its health checks too), it returns DIR to the last good commit and runs that (docs/rollout.md)",
    },
    { name: 'any-ref', kind: 'flag', env: 'GOVERN_PULL_ANY_REF', help: 'with --allowed-signers and --ref, accept a commit whatever its Govern-Ref trailer names (migration)' },
    { name: 'timeout', kind: 'duration', placeholder: 'DURATION', env: 'GOVERN_PULL_TIMEOUT', default: '10m', help: 'give up on git after this long' },
    ...fleetOptions,
    ...factsOptions,
    ...varDirOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    if (operands.length < 1 || operands.length > 2) throw new UserError(`expected REPO and optionally DIR (usage: ${this.usage})`);
    const [repo, dir = defaultStateTree()] = operands;
    const request: PullRequest = {
      repo,
      dir,
      ref: o.ref,
      allowedSigners: o.allowedSigners,
      anchor: o.anchor,
      allowRollback: o.allowRollback,
      anyRef: o.anyRef,
      revertOnFailure: o.revertOnFailure,
      varDir: o.varDir,
      timeoutMs: o.timeout,
      env: process.env,
      gate: await stageGate(o),
    };
    await out(await recordedPull(request, warn));
    return 0;
  },
});

/** The fleet's gate when a fleet is configured (the NATS client is loaded only when a tree has rollout.hcl). */
async function stageGate(o: Parameters<typeof fleetSettings>[0] & Parameters<typeof fleetHostName>[0]): Promise<StageGate | undefined> {
  const settings = fleetSettings(o);
  if (settings === undefined) return undefined;
  return async (tree, commit, old) => {
    const { fleetStageGate } = await import('../../fleet/stage-gate.js');
    return fleetStageGate(settings, await fleetHostName(o))(tree, commit, old);
  };
}
