// The cron runner's systemd form against the real systemd: for each schedule, the next elapses
// `systemd-analyze calendar --iterations` gives for its OnCalendar= events must be the minutes cron
// would run the job at. cron's side is worked out here from crontab(5)'s rules, independently of
// src/runners/cron/calendar.ts: fixed schedules for each rule, then random ones from a fixed seed.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { onCalendar, specialCalendar } from '../../../src/runners/cron/calendar.js';
import { FIELDS } from '../../../src/runners/cron/fields.js';

type Fields = { minute: string; hour: string; monthday: string; month: string; weekday: string };
const KEYS = ['minute', 'hour', 'monthday', 'month', 'weekday'] as const;
const BOUNDS = { minute: [0, 59], hour: [0, 23], monthday: [1, 31], month: [1, 12], weekday: [0, 7] } as const;
const NAMES: Record<string, string[]> = {
  month: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  weekday: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
};
const ITERATIONS = 4;
const BASE = Date.UTC(2026, 0, 1, 0, 0);

/** The set of values a cron field matches, by crontab(5). */
function matches(key: keyof Fields, field: string): Set<number> {
  const [min, max] = BOUNDS[key];
  const set = new Set<number>();
  const named = NAMES[key]?.indexOf(field.toLowerCase()) ?? -1;
  if (named >= 0) return new Set([key === 'month' ? named + 1 : named]);
  for (const element of field.split(',')) {
    const [range, step] = element.split('/');
    let [from, to] = range === '*' ? [min, max] : range.split('-').map(Number);
    if (to === undefined) to = from;
    for (let v = from; v <= to; v += Number(step ?? 1)) set.add(key === 'weekday' && v === 7 ? 0 : v);
  }
  return set;
}

/** The first `count` minutes (UTC, epoch ms) at or after `from` at which cron runs the job. */
function cronRuns(fields: Fields, from: number, count: number): number[] {
  const m = Object.fromEntries(KEYS.map((k) => [k, matches(k, fields[k])])) as Record<keyof Fields, Set<number>>;
  const domStar = fields.monthday.startsWith('*');
  const dowStar = fields.weekday.startsWith('*');
  const runs: number[] = [];
  // Seventeen years of days: long enough for a 29th of February to come four times.
  for (let day = from; day < from + 17 * 366 * 86_400_000 && runs.length < count; day += 86_400_000) {
    const d = new Date(day);
    if (!m.month.has(d.getUTCMonth() + 1)) continue;
    const dom = m.monthday.has(d.getUTCDate());
    const dow = m.weekday.has(d.getUTCDay());
    // crontab(5): with both day fields restricted, either one matching is enough.
    if (!(domStar || dowStar ? dom && dow : dom || dow)) continue;
    for (let hour = 0; hour < 24 && runs.length < count; hour++) {
      if (!m.hour.has(hour)) continue;
      for (let minute = 0; minute < 60 && runs.length < count; minute++) {
        if (m.minute.has(minute)) runs.push(day + hour * 3_600_000 + minute * 60_000);
      }
    }
  }
  return runs;
}

/** The union of the next elapses systemd gives for the events, the first `count` of them. */
function systemdRuns(events: string[], count: number): number[] {
  const r = spawnSync('systemd-analyze', ['calendar', `--iterations=${count}`, '--base-time=2025-12-31 23:59:59 UTC', ...events], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
  expect(r.status, `systemd-analyze calendar ${events.join(' | ')}: ${r.stderr}`).to.equal(0);
  const times = [...r.stdout.matchAll(/(?:Next elapse|Iter\. #\d+): \w{3} (\d{4}-\d\d-\d\d \d\d:\d\d):00 UTC/g)].map((x) => Date.parse(`${x[1].replace(' ', 'T')}:00Z`));
  return [...new Set(times)].sort((a, b) => a - b).slice(0, count);
}

const show = (ts: number[]) => ts.map((t) => new Date(t).toISOString().slice(0, 16));
const fields = (line: string): Fields => Object.fromEntries(line.split(' ').map((f, i) => [KEYS[i], f])) as Fields;

function agree(line: string): void {
  const given = fields(line);
  const events = onCalendar(given);
  expect(show(systemdRuns(events, ITERATIONS)), `${line} as ${events.join(' | ')}`).to.deep.equal(show(cronRuns(given, BASE, ITERATIONS)));
}

/** A small deterministic generator (mulberry32), so a failure names a schedule that stays failing. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomField(next: () => number, key: keyof Fields): string {
  const [min, max] = BOUNDS[key];
  const n = () => min + Math.floor(next() * (max - min + 1));
  const element = (): string => {
    const kind = next();
    if (kind < 0.2) return '*';
    if (kind < 0.45) return String(n());
    const [a, b] = [n(), n()].sort((x, y) => x - y);
    if (kind < 0.7) return `${a}-${b}`;
    if (kind < 0.85) return `*/${1 + Math.floor(next() * 10)}`;
    return `${a}-${b}/${1 + Math.floor(next() * 5)}`;
  };
  if (NAMES[key] && next() < 0.1) return NAMES[key][Math.floor(next() * NAMES[key].length)];
  const count = next() < 0.7 ? 1 : 2 + Math.floor(next() * 2);
  return Array.from({ length: count }, element).join(',');
}

const hasBaseTime = spawnSync('systemd-analyze', ['calendar', '--base-time=2026-01-01 00:00:00 UTC', 'daily'], { encoding: 'utf8' }).status === 0;

describe('cron schedules in systemd form fire when cron would (systemd-analyze calendar --iterations) #once', function () {
  before(function () {
    if (!hasBaseTime) this.skip(); // systemd-analyze missing, or older than 250 (no --base-time)
  });

  const fixed = [
    '0 0 * * 0-4', // Sunday to Thursday: systemd's week starts on Monday
    '30 2 * * 0',
    '30 2 * * 7',
    '0 0 * * 5-7',
    '0 0 * * 0,6',
    '15 8 * * 1-5',
    '0 12 1 * mon',
    '0 12 13 * 5', // Friday or the 13th
    '0 */6 * * *',
    '0-30/10 9-17 * * *',
    '0 0 29 2 *',
    '0 0 1,15 */3 *',
    '5 4 * jun sun',
  ];
  for (const line of fixed) it(line, () => agree(line));

  it('cron\'s 0-4 is written Mon..Thu,Sun, which systemd reads (it refuses Sun..Thu)', () => {
    const [event] = onCalendar(fields('0 0 * * 0-4'));
    expect(event).to.equal('Mon..Thu,Sun *-*-* 00:00:00');
    expect(execFileSync('systemd-analyze', ['calendar', event], { encoding: 'utf8' })).to.contain('Normalized form: Mon..Thu,Sun *-*-* 00:00:00');
    expect(spawnSync('systemd-analyze', ['calendar', 'Sun..Thu *-*-* 00:00:00']).status).to.not.equal(0);
  });

  it('300 random schedules from a fixed seed', () => {
    const next = random(20261201);
    for (let i = 0; i < 300; i++) {
      const line = KEYS.map((k) => randomField(next, k)).join(' ');
      const given = fields(line);
      // Only what planning lets through reaches the conversion.
      if (!KEYS.every((k) => new RegExp(`^(?:${FIELDS[k].pattern})$`).test(given[k]))) continue;
      // A backwards range is refused while planning; the generator sorts its ends.
      agree(line);
    }
  });

  it("each @ schedule fires when cron's equivalent line would (@weekly on Sundays)", () => {
    const lines: Record<string, string> = { yearly: '0 0 1 1 *', annually: '0 0 1 1 *', monthly: '0 0 1 * *', weekly: '0 0 * * 0', daily: '0 0 * * *', midnight: '0 0 * * *', hourly: '0 * * * *' };
    for (const [special, line] of Object.entries(lines)) {
      expect(show(systemdRuns([specialCalendar(special)], ITERATIONS)), `@${special}`).to.deep.equal(show(cronRuns(fields(line), BASE, ITERATIONS)));
    }
  });
});

describe("the time fields planning accepts are cron's (crontab(5), Debian's cron) #once", () => {
  const accepts = (key: keyof Fields, value: string) => new RegExp(`^(?:${FIELDS[key].pattern})$`).test(value);
  it('a step follows only * or a range: 5/10 is refused, */10 and 5-59/10 are taken', () => {
    expect(accepts('minute', '5/10')).to.equal(false);
    expect(accepts('minute', '1,5/10')).to.equal(false);
    expect(accepts('minute', '*/10')).to.equal(true);
    expect(accepts('minute', '5-59/10')).to.equal(true);
    expect(accepts('minute', '5,10-20/5,*/30')).to.equal(true);
    expect(accepts('weekday', '0-4')).to.equal(true);
  });

});
