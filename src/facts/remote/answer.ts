// What one host answered, read strictly: the remote side is another machine, so its output is
// untrusted. A JSON object of strings becomes fact values; anything else fails the whole host.
import { describeFailure, lastLines, type RunResult } from '../../shared/process.js';

export type HostAnswer =
  | {
      reached: true;
      values: Map<string, string>;
      /** Facts asked for that did not come back, with the remote side's reason. */
      failed: Map<string, string>;
      /** Other remote complaints (a failing `govern facts` exits 1 and says why on stderr). */
      warnings: string[];
    }
  | { reached: false; error: string };

/** ssh's own failures (cannot connect, authentication, host key) exit 255. */
const SSH_FAILED = 255;

/** What `govern facts` prints before a fact's failure on stderr. */
const REMOTE_PREFIX = 'govern: ';

/**
 * asked: the fact names on the command line, or 'all' when none were given (`govern facts --host
 * HOST` without names: whatever the host has).
 */
export function readAnswer(result: RunResult, asked: string[] | 'all', timeoutMs: number): HostAnswer {
  const stderrLines = result.stderr.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
  if (result.spawnError || result.timedOut || result.overflowed || result.signal) {
    return { reached: false, error: `ssh ${describeFailure(result, timeoutMs)}${tail(result.stderr)}` };
  }
  const parsed = parseFactsJson(result.stdout);
  if (typeof parsed === 'string') {
    // Nothing usable came back: say why, from the exit status and stderr.
    if (result.code === SSH_FAILED) return { reached: false, error: `ssh exit ${SSH_FAILED}${tail(result.stderr)}` };
    if (result.code !== 0) return { reached: false, error: `the remote command failed (exit ${result.code})${tail(result.stderr)}` };
    return { reached: false, error: `${parsed}${tail(result.stderr)}` };
  }
  const values = new Map<string, string>();
  const failed = new Map<string, string>();
  const attributed = new Set<string>();
  const names = asked === 'all' ? [...parsed.keys()] : asked;
  for (const name of names) {
    const value = parsed.get(name);
    if (value !== undefined) {
      values.set(name, value);
      continue;
    }
    const line = stderrLines.find((l) => l.startsWith(`${REMOTE_PREFIX}fact ${name}: `));
    if (line) attributed.add(line);
    failed.set(name, line ? line.slice(`${REMOTE_PREFIX}fact ${name}: `.length) : 'not in the answer');
  }
  const warnings =
    result.code === 0
      ? []
      : stderrLines.filter((l) => !attributed.has(l)).map((l) => (l.startsWith(REMOTE_PREFIX) ? l.slice(REMOTE_PREFIX.length) : l));
  return { reached: true, values, failed, warnings };
}

/** The facts, or why the text is not what `govern facts --json` prints. */
function parseFactsJson(stdout: string): Map<string, string> | string {
  const expected = 'the answer is not the JSON object of strings that "govern facts --json" prints';
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    return stdout.trim() === '' ? `${expected}: it is empty` : `${expected}: it starts with ${JSON.stringify(stdout.trim().slice(0, 60))}`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return `${expected}: it is ${jsonKind(data)}`;
  const facts = new Map<string, string>();
  for (const [name, value] of Object.entries(data)) {
    if (typeof value !== 'string') return `${expected}: fact ${JSON.stringify(name)} is ${jsonKind(value)}`;
    facts.set(name, value);
  }
  return facts;
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function tail(stderr: string): string {
  const last = lastLines(stderr, 3).trim();
  return last === '' ? '' : `: ${last.split('\n').map((l) => l.trim()).join(' / ')}`;
}
