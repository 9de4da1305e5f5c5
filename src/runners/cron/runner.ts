// The cron runner: the job's file in /etc/cron.d, read -> decide -> write or remove -> re-check. It
// uses only the request (no process globals), so a long-lived runner process can call it many times.
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import { withSbinPath } from '../../shared/find-program.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { decideWholeFile, wholeFileMessage } from '../lib/whole-file/decide.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { CRON_DIR, cronContent, cronJob } from './decide.js';
import { description } from './description.js';
import { systemdTimerProvider } from './provider-systemd.js';
import { applyTimer } from './timer.js';

/** cron ignores a file that is not owned by root or that others can write (crontab(5)). */
const CRON_FILE_MODE = 0o644;

export function cronRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('cron', description, 'a cron job', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const job = cronJob(request);
  if (job.provider === 'systemd') return applyTimer(request, job, systemdTimerProvider(providerContext(withSbinPath(request.env), request.log), job.scope));
  const file = path.join(CRON_DIR, job.name);
  const content = job.ensure === 'present' ? Buffer.from(cronContent(job)) : undefined;
  const desired = { path: file, ensure: job.ensure, content, mode: CRON_FILE_MODE, uid: 0, gid: 0 };
  const current = await readWholeFile(file);
  const plan = decideWholeFile(desired, current);
  const diffText = plan.contentChanged ? wholeFileDiff(file, current, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: wholeFileMessage(plan, request.noop), ...diff };
  await applyWholeFile(desired, plan, current);
  return { changed: true, message: wholeFileMessage(plan, false), ...diff };
}
