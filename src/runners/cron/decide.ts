// The cron decision: the job's cron.d file, whole. Pure: the file's content from the properties
// (crontab(5)'s system format: the five fields, the user, the command), then the whole-file table.
import { UserError } from '../../shared/errors.js';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { CronFields } from './calendar.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

export const CRON_DIR = '/etc/cron.d';

export interface CronJob {
  name: string;
  ensure: Described['ensure'];
  command?: string;
  user: string;
  /** The five fields, or one @ schedule. */
  schedule: string;
  fields: CronFields;
  special?: string;
  environment: string[];
  /** cron: a file in /etc/cron.d; systemd: a timer and its service. */
  provider: Described['provider'];
  scope: Described['scope'];
}

const TIME_KEYS = ['minute', 'hour', 'monthday', 'month', 'weekday'] as const;

export function cronJob(request: Pick<RunnerRequest<Described>, 'name' | 'values' | 'params'>): CronJob {
  const v = request.values;
  const given = TIME_KEYS.filter((k) => request.params.get(k) !== undefined);
  if (v.special !== undefined && given.length > 0) {
    throw new UserError(`special = "${v.special}" is the whole schedule: leave out ${given.join(', ')}`);
  }
  if (v.scope === 'user' && request.params.get('user') !== undefined) {
    throw new UserError('scope = "user" runs the job as the user running govern: leave out user');
  }
  const schedule = v.special !== undefined ? `@${v.special}` : TIME_KEYS.map((k) => v[k]).join(' ');
  const fields = { minute: v.minute, hour: v.hour, monthday: v.monthday, month: v.month, weekday: v.weekday };
  return { name: request.name, ensure: v.ensure, command: v.command, user: v.user, schedule, fields, special: v.special, environment: v.environment, provider: v.provider, scope: v.scope };
}

/** The first line of every file the runner writes for a job. */
export function cronHeader(name: string): string {
  return `# Managed by govern: cron "${name}"`;
}

/** The file: a comment naming govern, the environment, then the job's one line. */
export function cronContent(job: CronJob): string {
  return [cronHeader(job.name), ...job.environment, `${job.schedule} ${job.user} ${job.command}`, ''].join('\n');
}
