// The cron runner's systemd form (provider = "systemd"): NAME.service and NAME.timer written whole,
// one daemon-reload after a change, and the timer enabled and started, through the timer provider.
import fs from 'node:fs';
import path from 'node:path';
import type { RunnerResult } from '../../shared/protocol.js';
import type { RunnerRequest } from '../kit/index.js';
import { unitDirectory } from '../lib/systemd/unit-directory.js';
import { decideWholeFile, wholeFileMessage, type WholeFileDesired } from '../lib/whole-file/decide.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { CRON_DIR, cronHeader, type CronJob } from './decide.js';
import type { CronTimerProvider, TimerAction } from './provider-systemd.js';
import { timerUnits } from './timer-units.js';

/** systemd's own units are 0644, owned by the manager's user. */
const UNIT_MODE = 0o644;

export async function applyTimer(request: RunnerRequest<unknown>, job: CronJob, provider: CronTimerProvider): Promise<RunnerResult> {
  const dir = unitDirectory(job.scope, request.env);
  const timer = `${job.name}.timer`;
  const units = job.ensure === 'present' ? timerUnits(job) : undefined;
  const owner = { mode: UNIT_MODE, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const wanted: WholeFileDesired[] = [
    { path: path.join(dir, `${job.name}.service`), ensure: job.ensure, content: units && Buffer.from(units.service), ...owner },
    { path: path.join(dir, timer), ensure: job.ensure, content: units && Buffer.from(units.timer), ...owner },
  ];
  // The job's cron.d file, when govern wrote it: a job moved to a timer would otherwise run twice.
  const cronFile = path.join(CRON_DIR, job.name);
  if (job.scope === 'system' && writtenByGovern(cronFile, job.name)) wanted.push({ path: cronFile, ensure: 'absent', mode: 0o644, uid: 0, gid: 0 });

  const files = await Promise.all(wanted.map(async (desired) => ({ desired, current: await readWholeFile(desired.path) })));
  const plans = files.map(({ desired, current }) => ({ desired, current, plan: decideWholeFile(desired, current) }));
  const diffs = plans.flatMap(({ desired, current, plan }) => (plan.contentChanged ? [wholeFileDiff(desired.path, current, desired.content, request.log)] : [])).filter((d) => d !== undefined);
  const diff = diffs.length > 0 ? { diff: diffs.join('\n') } : {};
  const filesChanged = plans.some(({ plan }) => plan.changed);
  const timerChanged = plans[1].plan.changed;

  const status = await provider.status(timer);
  const actions: TimerAction[] = [];
  if (job.ensure === 'present') {
    if (!status.enabled) actions.push('enable');
    // A timer reads its schedule when it starts: a changed one is restarted.
    if (!status.running) actions.push('start');
    else if (timerChanged) actions.push('restart');
  } else {
    if (status.running) actions.push('stop');
    if (status.enabled) actions.push('disable');
  }
  const changed = filesChanged || actions.length > 0;
  const fileParts = plans.filter(({ plan, desired }) => plan.changed || desired.path !== cronFile);
  const timerPart = actions.length > 0 ? `${actions.map(past).join(' and ')} ${timer}` : job.ensure === 'present' ? `${timer} enabled and active` : `${timer} stopped`;
  const message = (noop: boolean, reloaded = false) =>
    [...fileParts.map(({ plan }) => wholeFileMessage(plan, noop)), ...(reloaded ? ['daemon-reload done'] : []), noop && actions.length > 0 ? `Would have ${timerPart}` : timerPart].join('; ');
  if (request.noop && filesChanged) provider.unitsWouldChange(request.env.GOVERN_RUN_DIR);
  if (request.noop || !changed) return { changed, message: message(request.noop), ...diff };

  // Stopped before its units go; started after they are read.
  if (job.ensure === 'absent') for (const action of actions) await provider.change(action, timer);
  for (const { desired, current, plan } of plans) await applyWholeFile(desired, plan, current);
  if (filesChanged) await provider.unitsChanged(request.env.GOVERN_RUN_DIR);
  if (job.ensure === 'present') for (const action of actions) await provider.change(action, timer);
  return { changed: true, message: message(false, filesChanged), ...diff };
}

function past(action: string): string {
  return action === 'stop' ? 'stopped' : `${action}${action.endsWith('e') ? 'd' : 'ed'}`;
}

function writtenByGovern(file: string, name: string): boolean {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() && fs.readFileSync(file, 'utf8').startsWith(`${cronHeader(name)}\n`);
  } catch {
    return false;
  }
}
