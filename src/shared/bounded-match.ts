// Matching a pattern a tree or a runner's description gives (a module parameter's `pattern`, a key's
// `pattern`) in bounded time: a pattern like `(a|aa)+` backtracks exponentially in JavaScript's
// engine, and planning an unreviewed revision must not hang (docs/security.md, "Counts and sizes").
// A pattern V8's linear-time engine can run (no backreferences, no lookaround, small counts), and
// that reads the same without the `u` flag (ASCII only), runs there; any other runs in a context
// that V8 stops after MATCH_TIME_LIMIT_MS.
import v8 from 'node:v8';
import vm from 'node:vm';

/** How long one match may take (a match of a sane pattern takes microseconds). */
export const MATCH_TIME_LIMIT_MS = 1000;

/**
 * Makes the `l` flag (linear-time engine) available; changes nothing else. Also called by
 * cli/start.ts before it compiles the bundle: V8 refuses cached code made under other flags.
 */
export function enableLinearEngine(): void {
  v8.setFlagsFromString('--enable-experimental-regexp-engine');
}
enableLinearEngine();

interface Compiled {
  linear?: RegExp;
  full: RegExp;
}
const compiled = new Map<string, Compiled>();
/** Reads the same without `u`: printable ASCII, and no \p{...} or \u{...}, which need it. */
const ASCII_ONLY = /^(?:[\x20-\x5b\x5d-\x7e]|\\[^pPu])*$/;

/** The whole-value regular expression of a pattern (throws SyntaxError for a bad one). */
export function wholePattern(pattern: string, flags = 'su'): RegExp {
  return compiledOf(pattern, flags).full;
}

/** Whether the whole text matches; undefined when the match ran past MATCH_TIME_LIMIT_MS and was stopped. */
export function matchesWhole(pattern: string, text: string, flags = 'su'): boolean | undefined {
  const re = compiledOf(pattern, flags);
  if (re.linear) return re.linear.test(text);
  // The same value is checked for many resources and hosts: each match with a time limit once.
  const key = `${flags}/${pattern}\0${text}`;
  if (verdicts.has(key)) return verdicts.get(key);
  let verdict: boolean | undefined;
  try {
    guard ??= { script: new vm.Script('re.test(text)'), context: vm.createContext({}) };
    Object.assign(guard.context, { re: re.full, text });
    verdict = guard.script.runInContext(guard.context, { timeout: MATCH_TIME_LIMIT_MS }) as boolean;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
  }
  if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

let guard: { script: vm.Script; context: vm.Context } | undefined;
const verdicts = new Map<string, boolean | undefined>();
const MAX_VERDICTS = 10_000;

/** The words for a match that was stopped. */
export function matchStopped(pattern: string, text: string): string {
  return `matching the pattern ${JSON.stringify(pattern)} against a value of ${text.length} characters took longer than ${MATCH_TIME_LIMIT_MS / 1000} s and was stopped (a pattern with nested repetition, such as (a|aa)+, backtracks without end: write it without)`;
}

function compiledOf(pattern: string, flags: string): Compiled {
  const key = `${flags}/${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    const source = `^(?:${pattern})$`;
    re = { full: new RegExp(source, flags) };
    if (oneQuantifier(pattern, flags)) {
      re.linear = re.full; // backtracks at most once over the text: as fast as the linear engine is slow
    } else if (ASCII_ONLY.test(pattern)) {
      try {
        re.linear = new RegExp(source, flags.replace('u', '') + 'l');
      } catch {
        // not for the linear engine: run with a time limit
      }
    }
    compiled.set(key, re);
  }
  return re;
}

/**
 * Whether JavaScript's own engine runs the anchored whole-value pattern in time bounded by the text's
 * length times the pattern's: no group, alternation, backreference or lookaround, and at most one
 * quantifier, which it backtracks over once (`/.+`, `[0-7]{3,4}`, `\S.*`). V8's linear engine is a
 * few times slower on such patterns (12 us a path for `/.+`: 60 ms of planning 10,000 resources cold).
 * Without the `m` flag `^` holds at the start alone. Anything unsure answers false (the other engines).
 */
function oneQuantifier(pattern: string, flags: string): boolean {
  if (!/^[siu]*$/.test(flags)) return false;
  let quantifiers = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const e = pattern[++i] ?? '';
      if (/[0-9A-Za-z]/.test(e) && !/[dDwWsSbBnrt]/.test(e)) return false; // \1, \k<>, \p{}, \u, \x, \c
    } else if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (c === '(' || c === ')' || c === '|') {
      return false;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      if (++quantifiers > 1) return false;
      if (c === '{') while (i < pattern.length && pattern[i] !== '}') i++;
      if (pattern[i + 1] === '?') i++; // lazy: the same quantifier
    }
  }
  return true;
}
