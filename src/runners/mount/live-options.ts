// Whether a mounted file system has the options an entry asks for, read in what
// /proc/self/mountinfo shows (the mount's flags and the file system's own options). The kernel
// shows options in its own words (size=1m as size=1024k) and leaves many out (auto, nofail,
// _netdev, x-systemd.*), so only what it shows is compared: an option it does not show is taken as
// met. Pure.

/** Flags that take the place of each other: the first of a pair is what an entry without either means. */
const FLAG_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['rw', 'ro'],
  ['suid', 'nosuid'],
  ['dev', 'nodev'],
  ['exec', 'noexec'],
];

/** Flags the kernel shows when they are set, and only then. */
const SHOWN_WHEN_SET = ['noatime', 'relatime', 'nodiratime', 'sync', 'dirsync', 'mand'];

/**
 * "1m" and "1024k" are the same size. A value the kernel words otherwise (size=50% is shown as a
 * size in k, uid=app as a number) cannot be compared, and is taken as met.
 */
function sameValue(wanted: string, shown: string): boolean {
  if (wanted === shown) return true;
  const a = number(wanted);
  const b = number(shown);
  if (a !== undefined && b !== undefined) return a === b;
  return a !== undefined || b !== undefined;
}

function number(value: string): number | undefined {
  const size = /^([0-9]+)([kmgt]?)$/i.exec(value);
  if (size === null) return undefined;
  const scale = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 }[size[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return parseInt(size[1], 10) * scale;
}

/** Modes and masks are octal: mode=0755 is shown as mode=755. */
const OCTAL_KEYS = new Set(['mode', 'umask', 'fmask', 'dmask']);

function sameOption(key: string, wanted: string, shown: string): boolean {
  if (OCTAL_KEYS.has(key) && /^[0-7]+$/.test(wanted) && /^[0-7]+$/.test(shown)) return parseInt(wanted, 8) === parseInt(shown, 8);
  return sameValue(wanted, shown);
}

/**
 * The options of `wanted` (fstab's words, "defaults" included) that the mounted file system does
 * not have, each as "shown -> wanted" ("ro -> rw", "size=1024k -> size=2m"); empty when it has them all.
 */
export function optionsNotMet(wanted: string, shown: string): string[] {
  const want = wanted.split(',').filter((o) => o !== '' && o !== 'defaults');
  const have = shown.split(',').filter((o) => o !== '');
  const haveSet = new Set(have);
  const missing: string[] = [];
  for (const [on, off] of FLAG_PAIRS) {
    const last = [...want].reverse().find((o) => o === on || o === off);
    // rw is what an entry means without ro; the other pairs are compared only when the entry says.
    const wantedFlag = last ?? (on === 'rw' ? on : undefined);
    if (wantedFlag === undefined) continue;
    const shownFlag = haveSet.has(off) ? off : on;
    if (wantedFlag !== shownFlag) missing.push(`${shownFlag} -> ${wantedFlag}`);
  }
  for (const flag of SHOWN_WHEN_SET) if (want.includes(flag) && !haveSet.has(flag)) missing.push(`no ${flag} -> ${flag}`);
  const shownValues = new Map(have.flatMap((o) => (o.includes('=') ? [[o.slice(0, o.indexOf('=')), o.slice(o.indexOf('=') + 1)] as const] : [])));
  for (const option of want) {
    const at = option.indexOf('=');
    if (at < 0) continue;
    const key = option.slice(0, at);
    const value = shownValues.get(key);
    if (value !== undefined && !sameOption(key, option.slice(at + 1), value)) missing.push(`${key}=${value} -> ${option}`);
  }
  return missing;
}
