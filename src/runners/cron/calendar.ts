// A cron schedule as systemd timer calendar events (systemd.time(7), OnCalendar=), for the cron
// runner's systemd form. Each field becomes the list of values cron would match, runs written as
// ranges (1-5 as 1..5, weekdays as Mon..Fri): systemd 252 takes neither `*/15` nor a range with a
// step. systemd's week runs Mon..Sun where cron's runs from Sunday (0, also 7): weekdays are written
// in systemd's order, so cron's 0-4 is Mon..Thu,Sun (Sun..Thu is refused, and the timer never runs).
// Pure; the fields were checked against src/runners/cron/fields.ts while planning.
import { UserError } from '../../shared/errors.js';

export interface CronFields {
  minute: string;
  hour: string;
  monthday: string;
  month: string;
  weekday: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** By cron's numbers, Sunday as 7: the order of systemd's week. */
const DAY_WORDS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const RANGES: Record<keyof CronFields, [number, number]> = { minute: [0, 59], hour: [0, 23], monthday: [1, 31], month: [1, 12], weekday: [0, 7] };

/**
 * cron's @ schedules as the events cron means by them (crontab(5): @weekly is `0 0 * * 0`, a Sunday;
 * systemd's own `weekly` is a Monday). @reboot has none: a timer is not a boot job.
 */
const SPECIALS: Record<string, string> = {
  yearly: '*-01-01 00:00:00',
  annually: '*-01-01 00:00:00',
  monthly: '*-*-01 00:00:00',
  weekly: 'Sun *-*-* 00:00:00',
  daily: '*-*-* 00:00:00',
  midnight: '*-*-* 00:00:00',
  hourly: '*-*-* *:00:00',
};

/** The values one field matches, sorted (Sunday as 7); undefined for `*` (every value). */
function values(key: keyof CronFields, field: string): number[] | undefined {
  if (field === '*') return undefined;
  const [min, max] = RANGES[key];
  const names = key === 'month' ? MONTHS : key === 'weekday' ? DAYS : [];
  const named = names.indexOf(field.toLowerCase());
  if (named >= 0) return [key === 'month' ? named + 1 : named || 7];
  const found = new Set<number>();
  for (const element of field.split(',')) {
    const [range, step = '1'] = element.split('/');
    const [from, to] = range === '*' ? [min, max] : range.includes('-') ? range.split('-').map(Number) : [Number(range), element.includes('/') ? max : Number(range)];
    if (from > to) throw new UserError(`${key} "${field}": the range ${range} runs backwards (cron's ranges go from the lower value to the higher)`);
    for (let v = from; v <= to; v += Number(step)) found.add(key === 'weekday' && v === 0 ? 7 : v);
  }
  return [...found].sort((a, b) => a - b);
}

/** 1,2,3,5 as 1..3,5; each value written by `word`. */
function list(vs: number[], word: (v: number) => string): string {
  const parts: string[] = [];
  for (let i = 0; i < vs.length; ) {
    let j = i;
    while (j + 1 < vs.length && vs[j + 1] === vs[j] + 1) j++;
    parts.push(j - i >= 2 ? `${word(vs[i])}..${word(vs[j])}` : vs.slice(i, j + 1).map(word).join(','));
    i = j + 1;
  }
  return parts.join(',');
}

function part(key: keyof CronFields, field: string, pad = true): string {
  const vs = values(key, field);
  if (vs === undefined) return '*';
  return list(vs, (v) => (key === 'weekday' ? DAY_WORDS[v] : pad ? String(v).padStart(2, '0') : String(v)));
}

/**
 * The OnCalendar= values of a schedule. cron runs a job whose day of the month and day of the week
 * are both restricted (neither starts with `*`) when either matches, where one systemd event needs
 * both: that takes two events, and the timer elapses at each.
 */
export function onCalendar(fields: CronFields): string[] {
  const time = `${part('hour', fields.hour)}:${part('minute', fields.minute)}:00`;
  const month = part('month', fields.month);
  const days = part('weekday', fields.weekday);
  const monthday = part('monthday', fields.monthday);
  const weekday = days === '*' ? '' : `${days} `;
  if (!fields.monthday.startsWith('*') && !fields.weekday.startsWith('*')) {
    return [`${days} *-${month}-* ${time}`, `*-${month}-${monthday} ${time}`];
  }
  return [`${weekday}*-${month}-${monthday} ${time}`];
}

/** A cron @ schedule as an OnCalendar= event; @reboot is refused. */
export function specialCalendar(special: string): string {
  const word = SPECIALS[special];
  if (word === undefined) throw new UserError(`special = "${special}" has no timer equivalent: a job at boot is a service enabled at boot (a unit and a service resource)`);
  return word;
}
