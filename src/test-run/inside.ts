// Inside the sandbox (chrooted into its root): the noop run, the real run, the second real run,
// each `govern run --json` of the tree as a user would start it, then the tree's checks; what they
// found is written to the work directory for the outer govern test to judge (verdict.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../report/types.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { describeFailure, lastLines, runCommand } from '../shared/process.js';
import { runChecks } from './run-checks.js';
import { workFiles, type SandboxSpec } from './spec.js';
import type { SandboxResult, StepName, StepResult } from './types.js';

/** What a run inside inherits: the sandbox's own directories, never the caller's GOVERN_* (but the two a run's mode reads). */
export function insideEnv(base: NodeJS.ProcessEnv, spec: SandboxSpec): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (!key.startsWith('GOVERN_') && key !== 'APT_CONFIG' && key !== 'NO_COLOR') env[key] = value;
  }
  // A caller's APT configuration is kept when the sandbox sees it (a test suite's dpkg lock wait).
  if (base.APT_CONFIG !== undefined && fs.existsSync(base.APT_CONFIG)) env.APT_CONFIG = base.APT_CONFIG;
  return { ...env, ...spec.env, NO_COLOR: '1' };
}

async function step(spec: SandboxSpec, name: StepName, env: NodeJS.ProcessEnv): Promise<StepResult> {
  const args = [path.join(spec.governRoot, 'bin', 'govern'), 'run', '--json', ...(name === 'noop' ? ['--noop'] : [])];
  if (spec.factsDir !== undefined) args.push('--facts-dir', spec.factsDir);
  if (spec.identity !== undefined) args.push('--identity', spec.identity);
  args.push('--', spec.target);
  const r = await runCommand(spec.node, args, { env, cwd: '/' });
  try {
    const report = JSON.parse(r.stdout) as RunReport;
    if (Array.isArray(report.resources)) return { step: name, exit: r.code, report };
  } catch {
    // no report: said below
  }
  const stderr = lastLines(r.stderr.trim(), 5);
  return { step: name, exit: r.code, error: `govern run ${describeFailure(r)} without a JSON report${stderr ? `: ${stderr}` : ''}` };
}

export async function runInside(spec: SandboxSpec): Promise<void> {
  const env = insideEnv(process.env, spec);
  const steps: StepResult[] = [];
  // A tree that cannot be planned would stop each run the same way: the first says it once.
  for (const name of ['noop', 'run', 'rerun'] as const) {
    const done = await step(spec, name, env);
    steps.push(done);
    if (done.report === undefined || done.report.errors.length > 0) break;
  }
  const through = steps.length === 3;
  const result: SandboxResult = { steps, checks: through ? await runChecks(spec.checks) : [], systemd: fs.existsSync('/run/systemd/system') };
  writeFileAtomic(workFiles(spec.work).result, JSON.stringify(result), 0o600);
}
