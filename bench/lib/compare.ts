// govern against its peers on one workload: first runs on empty trees, then no-change runs, each
// in several rounds with the tool order rotated, every run checked (resources counted, changes
// reported, failures), and every tool's tree checked by the floor script after its first run.
import fs from 'node:fs';
import path from 'node:path';
import { measure, run } from './proc.js';
import { rotate } from './stats.js';
import { ALL_TOOLS, emptyGovernCache, floorTool, judgeFloor, type Expected, type Phase, type ToolContext, type ToolName, type Verdict } from './tools.js';

export interface RunRecord {
  tool: ToolName;
  phase: Phase;
  round: number;
  wallMs: number;
  maxRssKb?: number;
  cpuMs?: number;
  verdict: Verdict;
}

/** A run thrown away because something else on the host changed the setup during it; it was repeated. */
export interface Discarded {
  tool: ToolName;
  phase: Phase;
  round: number;
  disturbances: string[];
  problems: string[];
}

/** Keeps the set-up as the harness made it (see Harness.disturbances). */
export interface Guard {
  disturbances(): string[];
  restore(): Promise<void>;
}

/** A run is repeated at most this many times when the host keeps disturbing it. */
export const MAX_ATTEMPTS = 3;

/** Before a timed run: put back what something else on the host changed. */
export async function settle(guard: Guard, log: (line: string) => void): Promise<void> {
  const before = guard.disturbances();
  if (!before.length) return;
  log(`the set-up was disturbed (${before.join('; ')}): waiting, then restoring it`);
  await guard.restore();
}

export interface CompareResult {
  rounds: number;
  discarded: Discarded[];
  expected: Expected;
  records: RunRecord[];
  /** The floor script run against each tool's tree after every first run: the first that found a problem, else the last. */
  treeChecks: Partial<Record<ToolName, Verdict>>;
  /** govern's JSON report of its last no-change run (where its time goes). */
  governLastReport?: string;
}

export interface CompareOptions {
  tools: ToolName[];
  contexts: Record<ToolName, ToolContext>;
  expected: Expected;
  rounds: number;
  guard: Guard;
  log: (line: string) => void;
}

const RUN_TIMEOUT_MS = 30 * 60 * 1000;

export async function compare(o: CompareOptions): Promise<CompareResult> {
  const result: CompareResult = { rounds: o.rounds, discarded: [], expected: o.expected, records: [], treeChecks: {} };
  const treeTools = o.tools.filter((t) => ALL_TOOLS[t].managesTree);

  for (let r = 0; r < o.rounds; r++) {
    for (const name of rotate(treeTools, r)) {
      const ctx = o.contexts[name];
      result.records.push(await timedRun(name, 'first', r, o));
      const check = await checkTree(ctx, o.contexts.sh.entry, o.expected);
      if (!result.treeChecks[name]?.problems.length) result.treeChecks[name] = check; // keep the first bad one
    }
  }
  for (let r = 0; r < o.rounds; r++) {
    for (const name of rotate(o.tools, r)) {
      const record = await timedRun(name, 'again', r, o);
      result.records.push(record);
    }
  }
  return result;

  async function timedRun(name: ToolName, phase: Phase, round: number, opts: CompareOptions): Promise<RunRecord> {
    const tool = ALL_TOOLS[name];
    const ctx = opts.contexts[name];
    for (let attempt = 1; ; attempt++) {
      await settle(opts.guard, opts.log);
      if (phase === 'first') resetTree(name, ctx);
      const inv = tool.invocation(ctx);
      const outcome = await measure(inv.argv, { env: inv.env, cwd: inv.cwd, timeoutMs: RUN_TIMEOUT_MS });
      const verdict = tool.judge(outcome, phase, opts.expected, ctx);
      verdict.problems.push(...expectations(verdict, phase, opts.expected, name));
      const label = `round ${round + 1}/${opts.rounds}  ${phase === 'first' ? 'first run' : 'no change'}  ${tool.label.padEnd(26)} ${(outcome.wallMs / 1000).toFixed(3).padStart(8)} s`;
      const disturbed = opts.guard.disturbances();
      if (disturbed.length && attempt < MAX_ATTEMPTS) {
        result.discarded.push({ tool: name, phase, round, disturbances: disturbed, problems: verdict.problems });
        opts.log(`${label}  DISCARDED, the set-up was disturbed during the run (${disturbed.join('; ')}); repeating it`);
        continue;
      }
      if (disturbed.length) verdict.problems.push(`the set-up was disturbed during the run: ${disturbed.join('; ')}`);
      if (name === 'govern' && phase === 'again') result.governLastReport = outcome.stdout;
      opts.log(`${label}  ${verdict.problems.length ? `PROBLEM: ${verdict.problems.join('; ')}` : 'ok'}`);
      return { tool: name, phase, round, wallMs: outcome.wallMs, maxRssKb: outcome.maxRssKb, cpuMs: outcome.cpuMs, verdict };
    }
  }
}

/** What every tool's report must say: all resources, and the changes a first or second run makes. */
function expectations(v: Verdict, phase: Phase, e: Expected, name: ToolName): string[] {
  const problems: string[] = [];
  if (v.resources !== undefined && v.resources !== e.resources) problems.push(`${v.resources} resources, expected ${e.resources}`);
  const changes = phase === 'first' ? e.firstChanges : 0;
  const floor = !ALL_TOOLS[name].managesTree;
  if (!floor && v.changed !== undefined && v.changed !== changes) problems.push(`${v.changed} changed, expected ${changes}`);
  if (floor && v.changed) problems.push(`${v.changed} resources differ`);
  return problems;
}

/** An empty tree, so the first run really creates everything (and govern has no parse cache yet). */
function resetTree(name: ToolName, ctx: ToolContext): void {
  fs.rmSync(ctx.tree, { recursive: true, force: true });
  fs.mkdirSync(ctx.tree, { recursive: true, mode: 0o755 });
  fs.chmodSync(ctx.tree, 0o755);
  if (name === 'govern') emptyGovernCache(ctx);
}

async function checkTree(ctx: ToolContext, floorScript: string, expected: Expected): Promise<Verdict> {
  const inv = floorTool.invocation({ ...ctx, entry: floorScript, floorTree: ctx.tree });
  const verdict = judgeFloor(await run(inv.argv, { env: inv.env }));
  if (verdict.resources !== expected.resources) verdict.problems.push(`floor checked ${verdict.resources}, expected ${expected.resources}`);
  if (verdict.changed) verdict.problems.push(`${verdict.changed} resources differ from the workload`);
  return verdict;
}

export function contextsFor(root: string, entries: Partial<Record<ToolName, string>>, floorTreeOwner: ToolName): Record<ToolName, ToolContext> {
  const out = {} as Record<ToolName, ToolContext>;
  for (const name of Object.keys(ALL_TOOLS) as ToolName[]) {
    const dir = path.join(root, name);
    out[name] = { dir, tree: path.join(dir, 'tree'), entry: entries[name] ?? '', floorTree: path.join(root, floorTreeOwner, 'tree') };
  }
  return out;
}
