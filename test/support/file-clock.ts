// How long each test file took, hooks included, in wall time and in CPU time: mocha's process and
// the children it waited for (govern, the runners, apt...: the kernel adds a child's CPU to its
// parent's when the parent reaps it), from /proc/self/stat. What the reporters print the files by.
import Mocha from 'mocha';
import fs from 'node:fs';
import path from 'node:path';

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

export interface FileTime {
  wallMs: number;
  cpuMs: number;
}

/** This process's CPU and its reaped children's, in milliseconds (utime, stime, cutime, cstime). */
function cpuMs(): number {
  // The command name (field 2) may hold spaces: the fields after it start past its closing parenthesis.
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 to 17 of proc(5), in clock ticks (100 a second on Linux).
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) * 10;
}

/** Fills a map of test file -> its time as the run goes (a file's top-level suites added up). */
export function timeFiles(runner: Mocha.Runner): Map<string, FileTime> {
  const started = new Map<Mocha.Suite, FileTime>();
  const took = new Map<string, FileTime>();
  runner.on(EVENT_SUITE_BEGIN, (suite) => {
    if (suite.file && suite.parent?.root) started.set(suite, { wallMs: Date.now(), cpuMs: cpuMs() });
  });
  runner.on(EVENT_SUITE_END, (suite) => {
    const start = started.get(suite);
    if (!suite.file || !start) return;
    const sum = took.get(suite.file) ?? { wallMs: 0, cpuMs: 0 };
    took.set(suite.file, { wallMs: sum.wallMs + Date.now() - start.wallMs, cpuMs: sum.cpuMs + cpuMs() - start.cpuMs });
  });
  return took;
}

/** `WALL CPU FILE` lines in seconds, slowest first; the first `limit` of them when given. */
export function timingLines(took: Map<string, FileTime>, limit = Infinity): string[] {
  const root = process.cwd();
  return [...took]
    .sort((a, b) => b[1].wallMs - a[1].wallMs)
    .slice(0, limit)
    .map(([file, t]) => `${(t.wallMs / 1000).toFixed(1).padStart(6)} ${(t.cpuMs / 1000).toFixed(1).padStart(6)} ${path.relative(root, file)}`);
}
