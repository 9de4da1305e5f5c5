// The flow of an edit runner (ini, block): read the file with the one whole-file reader, decide,
// show the diff (the content rule of private-content.ts), validate, back up, write atomically with
// the attributes the file had (or those of a new file), and read it back. Under the file's target
// lock, so that two resources on one file never write over each other's change.
import crypto from 'node:crypto';
import { providerContext } from '../../../shared/command-runner.js';
import { UserError } from '../../../shared/errors.js';
import type { RunnerResult } from '../../../shared/protocol.js';
import type { RunnerRequest } from '../../kit/index.js';
import { resolveAccount } from '../accounts/lookup.js';
import { contentDiff } from '../content-diff.js';
import { backUp } from '../file/backup.js';
import { posixProvider } from '../file/posix.js';
import { validateContent } from '../file/validate-content.js';
import { lockingTargets } from '../target-lock.js';
import { readWhole } from '../whole-file/provider-posix.js';
import { editMessage, type EditCurrent, type EditPlan } from './decide-edit.js';
import type { EditTarget } from './keys.js';

type Request = RunnerRequest<unknown>;

/** A runner's apply: `decide` gives the plan for what is found at the target's path. */
export function editApply<R extends Request>(targetOf: (request: R) => EditTarget, decide: (request: R, current: EditCurrent) => EditPlan): (request: R) => Promise<RunnerResult> {
  return lockingTargets((r: R) => [targetOf(r).path], (r: R) => apply(r, targetOf(r), decide));
}

async function apply<R extends Request>(request: R, target: EditTarget, decide: (request: R, current: EditCurrent) => EditPlan): Promise<RunnerResult> {
  const found = await readWhole(target.path, '; govern edits files up to that size');
  const current: EditCurrent = found.type === 'file' ? { type: 'file', content: found.content } : found;
  const plan = decide(request, current);
  for (const warning of plan.warnings) request.log(`warning: ${warning}`);
  const mode = found.type === 'file' ? found.attrs.mode : target.newFile.mode;
  const diffText = plan.content ? contentDiff(target.path, found.type === 'file' ? found.content : Buffer.alloc(0), plan.content, [mode], request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  const context = providerContext(request.env, request.log);
  // The edited file is checked in noop mode as well: a temporary copy beside it, nothing live.
  if (target.validate !== undefined && plan.changed && plan.content) await validateContent(target.validate, target.path, plan.content, context, request.noop);
  if (request.noop || !plan.changed || !plan.content) return { changed: plan.changed, message: editMessage(plan, request.noop), ...diff };

  if (found.type === 'file') {
    if (target.backup) request.log(`backed up the old content to ${backUp(target.path, request.env)}`);
    await posixProvider.store(target.path, plan.content, found.attrs, 'file', false);
  } else {
    const { owner, group } = target.newFile;
    const uid = owner ? (await resolveAccount('passwd', owner, context)).id : (process.getuid?.() ?? 0);
    const gid = group ? (await resolveAccount('group', group, context)).id : (process.getgid?.() ?? 0);
    await posixProvider.store(target.path, plan.content, { uid, gid, mode }, 'nothing', false);
  }
  await check(target.path, plan, found.type === 'file');
  return { changed: true, message: editMessage(plan, false), ...diff };
}

/** The file read again holds exactly the content written. */
async function check(path: string, plan: EditPlan, existed: boolean): Promise<void> {
  const after = await readWhole(path);
  const expected = crypto.createHash('sha256').update(plan.content!).digest('hex');
  if (after.type !== 'file' || after.sha256 !== expected) {
    throw new UserError(`${path} did not hold the ${existed ? 'rewritten' : 'created'} content after govern ${plan.summary}; another process may have changed it, run again`);
  }
}
