// The five time fields of a cron.d line as patterns, so that govern checks them while planning, with
// the file and line (crontab(5)): `*` or a range, each with an optional `/step`, or a number, in a
// comma-separated list; or one month or weekday name (cron allows no ranges or lists of names).
// A step follows only `*` or a range: Debian's cron refuses `5/10`, so the cron.d line would be
// skipped while the timer form ran it.

const STEP = '(?:/[1-9][0-9]*)?';

/** A field whose numbers match `number`, and which may be one of `names`. */
function field(number: string, names: string[] = []): string {
  const element = `(?:(?:\\*|(?:${number})-(?:${number}))${STEP}|(?:${number}))`;
  const list = `${element}(?:,${element})*`;
  return names.length > 0 ? `${list}|(?:${names.join('|')})` : list;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const withCase = (names: string[]) => names.flatMap((n) => [n, n[0].toUpperCase() + n.slice(1), n.toUpperCase()]);

export const FIELDS = {
  minute: { pattern: field('[0-5]?[0-9]'), what: 'a cron minute field (0-59: *, 5, 0-30, */15, 0,30)' },
  hour: { pattern: field('[01]?[0-9]|2[0-3]'), what: 'a cron hour field (0-23: *, 4, 9-17, */2)' },
  monthday: { pattern: field('0?[1-9]|[12][0-9]|3[01]'), what: 'a cron day-of-month field (1-31)' },
  month: { pattern: field('0?[1-9]|1[0-2]', withCase(MONTHS)), what: 'a cron month field (1-12, or one name: jan)' },
  weekday: { pattern: field('[0-7]', withCase(DAYS)), what: 'a cron weekday field (0-7, 0 and 7 are Sunday, or one name: mon)' },
} as const;
