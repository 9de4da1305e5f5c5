// Tests that need a program from outside the project (Ansible, a package manager of another
// distribution) skip when it is missing or too old, and say why: the reason is added to the title of
// every test skipped, so the report shows it. A program the suite installs (scripts/setup-debian)
// is not one of these: a test fails when it is missing.
import { runCommand } from '../../src/shared/process.js';

export interface ToolNeed {
  command: string;
  /** The oldest version that has what the test uses, read from `command ARGS` by `pattern` (first group). */
  minimum?: { version: string; args: string[]; pattern: RegExp; what: string };
}

function older(a: string, b: string): boolean {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

/** Why the tool cannot serve the test, or undefined when it can. */
export async function toolMissing(need: ToolNeed | string): Promise<string | undefined> {
  const n = typeof need === 'string' ? { command: need } : need;
  if ((await runCommand('sh', ['-c', 'command -v "$1" >/dev/null', 'sh', n.command])).code !== 0) return `${n.command} is not installed`;
  if (n.minimum === undefined) return undefined;
  const r = await runCommand(n.command, n.minimum.args, { timeoutMs: 60_000 });
  const found = n.minimum.pattern.exec(r.stdout + r.stderr)?.[1];
  if (found === undefined) return `cannot tell the version of ${n.command} (${n.command} ${n.minimum.args.join(' ')})`;
  if (older(found, n.minimum.version)) return `${n.command} ${found} is older than ${n.minimum.version}, which ${n.minimum.what}`;
  return undefined;
}

/** In a before hook: skips the describe's tests, naming the reason in each title, unless every tool serves. */
export async function skipUnlessTools(ctx: Mocha.Context, needs: (ToolNeed | string)[]): Promise<void> {
  for (const need of needs) {
    const reason = await toolMissing(need);
    if (reason !== undefined) skipBecause(ctx, reason);
  }
}

export function skipBecause(ctx: Mocha.Context, reason: string): never {
  const mark = (suite: Mocha.Suite | undefined): void => {
    if (suite === undefined) return;
    for (const test of suite.tests) test.title += ` (skipped: ${reason})`;
    suite.suites.forEach(mark);
  };
  mark(ctx.test?.parent);
  ctx.skip();
}
