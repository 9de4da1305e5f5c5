// The line runner: read -> decide -> write -> re-check. It uses only the request (no process
// globals), so a long-lived runner process can call it many times.
import crypto from 'node:crypto';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { contentDiff } from '../lib/content-diff.js';
import { lockingTargets } from '../lib/target-lock.js';
import { decide, planMessage, type LineCurrent, type Plan } from './decide.js';
import { description } from './description.js';
import { lineProperties } from './properties.js';
import { posixLineProvider, type LineProvider } from './provider-posix.js';
import { providerContext } from '../../shared/command-runner.js';
import { validateContent } from '../lib/file/validate-content.js';

export function lineRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('line', description, 'a line', lockingTargets((r) => [lineProperties(r).path], apply));
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = lineProperties(request);
  const context = providerContext(request.env, request.log);
  const provider = posixLineProvider(context);
  const found = await provider.status(props.path);
  const plan = decide(props, found.current, request.noop);
  for (const warning of plan.warnings) request.log(`warning: ${warning}`);
  const diffText = plan.content && found.current.type === 'file' ? contentDiff(props.path, found.current.content, plan.content, [found.attrs?.mode], request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  // The edited file is checked in noop mode as well: a temporary copy beside it, nothing live.
  if (props.validate !== undefined && plan.changed && plan.content) await validateContent(props.validate, props.path, plan.content, context, request.noop);
  if (request.noop || !plan.changed || !plan.content) return { changed: plan.changed, message: planMessage(plan, request.noop), ...diff };

  await provider.store(props.path, plan.content, found.attrs);
  await check(provider, props.path, plan, found.current);
  return { changed: true, message: planMessage(plan, false), ...diff };
}

/** The file read again holds exactly the content written. */
async function check(provider: LineProvider, path: string, plan: Plan, before: LineCurrent): Promise<void> {
  const after = await provider.status(path);
  const expected = crypto.createHash('sha256').update(plan.content!).digest('hex');
  if (after.current.type !== 'file' || after.sha256 !== expected) {
    const what = before.type === 'absent' ? 'created' : 'rewritten';
    throw new UserError(`${path} did not hold the ${what} content after govern ${plan.summary}; another process may have changed it, run again`);
  }
}
