// A POSIX sh runner for testing the core: it appends one line per call to a log file and reports
// a change when given changed=true, fails when given fail=true. It does not describe itself, so
// govern passes it any key unchecked.
import fs from 'node:fs';
import path from 'node:path';
import { shRunner } from './cli.js';

export interface Call {
  runner: string;
  name: string;
  signal: string;
  noop: string;
  args: string[];
}

export function recordingRunner(dir: string, name: string, log: string): string {
  return shRunner(
    dir,
    name,
    // Asked to describe itself (govern does so once per runner file): it does not, and records nothing.
    `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0
line=$(printf '%s\\t%s\\t%s' "$(basename "$0")" "\${GOVERN_SIGNAL:-}" "\${GOVERN_NOOP:-}")
for a in "$@"; do line=$(printf '%s\\t%s' "$line" "$a"); done
# One write per call, so that runners working at the same time (--jobs) do not mix their lines.
printf '%s\\n' "$line" >> ${log}
for a in "$@"; do
  case "$a" in
    changed=true) [ -n "\${GOVERN_SIGNAL:-}" ] || echo changed=true ;;
    fail=true) echo "failing on purpose" >&2; exit 1 ;;
  esac
done
echo "message=handled $1"`,
  );
}

export function readCalls(log: string): Call[] {
  let text: string;
  try {
    text = fs.readFileSync(log, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const [runner, signal, noop, name, ...args] = line.split('\t');
      return { runner, signal, noop, name, args };
    });
}

/** "pkg:nginx" or "service:nginx!restart" for each call, to compare sequences. */
export function callRefs(log: string): string[] {
  return readCalls(log).map((c) => `${c.runner}:${c.name}${c.signal ? `!${c.signal}` : ''}`);
}

export function runnersWith(dir: string, log: string, names: string[]): string {
  for (const n of names) recordingRunner(dir, n, log);
  return path.resolve(dir);
}
