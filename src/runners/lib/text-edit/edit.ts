// The flow of an edit runner (ini, block): read the file with the one whole-file reader, decide,
// show the diff (the content rule of private-content.ts), validate, back up, write atomically with
// the attributes the file had (or those of a new file), and read it back. Under the file's target
// lock, so that two resources on one file never write over each other's change.
import { backupWanted } from '../file/backup.js';
import crypto from 'node:crypto';
import { providerContext } from '../../../shared/command-runner.js';
import type { RunnerDescription } from '../../../shared/description.js';
import { UserError } from '../../../shared/errors.js';
import type { RunnerResult } from '../../../shared/protocol.js';
import { applyOnlyRunner } from '../../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../../kit/index.js';
import { contentDiff } from '../content-diff.js';
import { lockingTargets } from '../target-lock.js';
import { editMessage, type EditCurrent, type EditPlan } from './decide-edit.js';
import type { EditTarget } from './keys.js';
import { posixEditProvider, type EditProvider } from './provider-posix.js';

/**
 * An edit runner: `properties` gives the resource's properties with the file it edits, `decide` the
 * plan for what is found there; `what` names a resource in the refresh answer (applyOnlyRunner).
 */
export function editRunner<D extends RunnerDescription, P extends { target: EditTarget }>(
  name: string,
  description: D,
  what: string,
  properties: (request: RunnerRequest<Values<D>>) => P,
  decide: (props: P, current: EditCurrent, noop: boolean) => EditPlan,
): RunnerDefinition<D> {
  return applyOnlyRunner(
    name,
    description,
    what,
    lockingTargets(
      (r) => [properties(r).target.path],
      (r) => {
        const props = properties(r);
        return apply(r, props.target, (current) => decide(props, current, r.noop));
      },
    ),
  );
}

async function apply(request: RunnerRequest<unknown>, target: EditTarget, decide: (current: EditCurrent) => EditPlan): Promise<RunnerResult> {
  const provider = posixEditProvider(providerContext(request.env, request.log));
  const found = await provider.status(target.path);
  const current: EditCurrent = found.type === 'file' ? { type: 'file', content: found.content } : found;
  const plan = decide(current);
  for (const warning of plan.warnings) request.log(`warning: ${warning}`);
  const mode = found.type === 'file' ? found.attrs.mode : target.newFile.mode;
  const diffText = plan.content ? contentDiff(target.path, found.type === 'file' ? found.content : Buffer.alloc(0), plan.content, [mode], request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  // The edited file is checked in noop mode as well: a temporary copy beside it, nothing live.
  if (target.validate !== undefined && plan.changed && plan.content) await provider.validate(target.validate, target.path, plan.content, request.noop);
  if (request.noop || !plan.changed || !plan.content) return { changed: plan.changed, message: editMessage(plan, request.noop), ...diff };

  if (found.type === 'file') {
    if (backupWanted(target.backup, request.env)) request.log(`backed up the old content to ${provider.backUp(target.path)}`);
    await provider.store(target.path, plan.content, found.attrs, true);
  } else {
    await provider.store(target.path, plan.content, { ...(await provider.newOwner(target.newFile)), mode }, false);
  }
  await check(provider, target.path, plan, found.type === 'file');
  return { changed: true, message: editMessage(plan, false), ...diff };
}

/** The file read again holds exactly the content written. */
async function check(provider: EditProvider, path: string, plan: EditPlan, existed: boolean): Promise<void> {
  const after = await provider.status(path);
  const expected = crypto.createHash('sha256').update(plan.content!).digest('hex');
  if (after.type !== 'file' || after.sha256 !== expected) {
    throw new UserError(`${path} did not hold the ${existed ? 'rewritten' : 'created'} content after govern ${plan.summary}; another process may have changed it, run again`);
  }
}
