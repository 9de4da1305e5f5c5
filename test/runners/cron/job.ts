// A cron job as the runner reads it, for the pure tests: every field given, each test changes what it checks.
import type { CronJob } from '../../../src/runners/cron/decide.js';

const FIELDS_ANY = { minute: '*', hour: '*', monthday: '*', month: '*', weekday: '*' };
export const job = (over: Partial<CronJob>): CronJob => ({
  name: 'backup',
  ensure: 'present',
  command: 'x',
  user: 'root',
  schedule: '* * * * *',
  fields: FIELDS_ANY,
  environment: [],
  provider: 'cron',
  scope: 'system',
  ...over,
});
