// How the harness runs each tool and reads its report: the command line, what a first run must
// reset, and the verdict (resources counted, changes reported, problems) for each phase.
import fs from 'node:fs';
import path from 'node:path';
import { baseEnv, type Outcome } from './proc.js';
import { GOVERN } from './system.js';

export const TOOLS = ['govern', 'puppet', 'ansible', 'cfengine', 'sh', 'node'] as const;
export type ToolName = (typeof TOOLS)[number];
export type Phase = 'first' | 'again';

export interface Expected {
  resources: number;
  /** Changes a first run on an empty tree reports. */
  firstChanges: number;
}

export interface Verdict {
  /** Resources the tool's own report accounts for (undefined: the report does not say). */
  resources?: number;
  changed?: number;
  problems: string[];
}

export interface ToolContext {
  /** The tool's directory: ROOT/<tool>. */
  dir: string;
  tree: string;
  /** What the tool is pointed at (state tree, manifest, playbook, policy, script). */
  entry: string;
  /** The tree the floors check (a tree another tool created). */
  floorTree?: string;
}

export interface GovernSettings {
  runnerMode?: 'oneshot' | 'persistent';
  jobs?: number;
  /** A fresh, empty parse cache for every run (the first run on a host), instead of a kept one: see emptyGovernCache. */
  coldCache?: boolean;
}

export interface Invocation {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface Tool {
  name: ToolName;
  /** As the tables print it. */
  label: string;
  /** Creates and manages a tree (all but the floor). */
  managesTree: boolean;
  invocation(ctx: ToolContext): Invocation;
  judge(outcome: Outcome, phase: Phase, expected: Expected, ctx: ToolContext): Verdict;
}

export function governCacheDir(ctx: ToolContext): string {
  return path.join(ctx.dir, 'cache');
}

export function emptyGovernCache(ctx: ToolContext): void {
  fs.rmSync(governCacheDir(ctx), { recursive: true, force: true });
}

export function governInvocation(ctx: ToolContext, settings: GovernSettings = {}): Invocation {
  const argv = [GOVERN, 'run', '--json', '--detailed-exitcodes'];
  if (settings.runnerMode) argv.push('--runner-mode', settings.runnerMode);
  if (settings.jobs !== undefined) argv.push('--jobs', String(settings.jobs));
  argv.push(ctx.entry);
  return { argv, env: baseEnv({ GOVERN_CACHE_DIR: governCacheDir(ctx) }) };
}

export interface GovernReport {
  resources: { ref: string; status: string; duration_ms: number; message?: string }[];
  summary: { resources: number; changed: number; unchanged: number; failed: number; skipped: number; duration_ms: number };
}

export function parseGovernReport(stdout: string): GovernReport | undefined {
  try {
    return JSON.parse(stdout) as GovernReport;
  } catch {
    return undefined;
  }
}

/** Exit status with --detailed-exitcodes: 2 when something changed, 0 when nothing did. */
function detailedExit(outcome: Outcome, phase: Phase, problems: string[]): void {
  const want = phase === 'first' ? 2 : 0;
  if (outcome.code !== want) problems.push(`exit status ${outcome.code ?? outcome.signal}, expected ${want}`);
}

function judgeGovern(outcome: Outcome, phase: Phase, expected: Expected): Verdict {
  const problems: string[] = [];
  detailedExit(outcome, phase, problems);
  const report = parseGovernReport(outcome.stdout);
  if (!report) return { problems: [...problems, `no JSON report: ${tail(outcome.stderr)}`] };
  const s = report.summary;
  if (s.failed || s.skipped) problems.push(`${s.failed} failed, ${s.skipped} skipped: ${failures(report)}`);
  return { resources: s.resources, changed: s.changed, problems };
}

function failures(report: GovernReport): string {
  return report.resources.filter((r) => r.status === 'failed').slice(0, 3).map((r) => `${r.ref}: ${r.message ?? ''}`).join('; ');
}

export const governTool: Tool = {
  name: 'govern',
  label: 'govern run',
  managesTree: true,
  invocation: (ctx) => governInvocation(ctx),
  judge: judgeGovern,
};

function puppetDirs(ctx: ToolContext): Record<string, string> {
  const state = path.join(ctx.dir, 'state');
  return { vardir: `${state}/var`, confdir: `${state}/conf`, codedir: `${state}/code`, logdir: `${state}/log`, rundir: `${state}/run` };
}

export const puppetTool: Tool = {
  name: 'puppet',
  label: 'puppet apply',
  managesTree: true,
  invocation(ctx) {
    const dirs = Object.entries(puppetDirs(ctx)).flatMap(([k, v]) => [`--${k}`, v]);
    return { argv: ['puppet', 'apply', '--detailed-exitcodes', '--color=false', ...dirs, ctx.entry], env: baseEnv() };
  },
  judge(outcome, phase, _expected, ctx) {
    const problems: string[] = [];
    detailedExit(outcome, phase, problems);
    const file = path.join(puppetDirs(ctx).vardir, 'state', 'last_run_report.yaml');
    let report = '';
    try {
      report = fs.readFileSync(file, 'utf8');
    } catch {
      return { problems: [...problems, `no report ${file}`] };
    }
    const statuses = workloadStatuses(report);
    const failed = statuses.filter((s) => s.failed).length;
    if (failed) problems.push(`${failed} failed`);
    return { resources: statuses.length, changed: statuses.filter((s) => s.changed).length, problems };
  },
};

/**
 * The report's resource_statuses of the workload's types. Puppet adds its own Schedule and
 * Filebucket resources, which its `changed` metric counts too (now and then all seven of them
 * change), so the metric is not used.
 */
export function workloadStatuses(report: string): { ref: string; changed: boolean; failed: boolean }[] {
  const out: { ref: string; changed: boolean; failed: boolean }[] = [];
  // Every entry of resource_statuses starts at two spaces of indent ("  Type[title]:"); each is read up to the next.
  const starts = [...report.matchAll(/^ {2}([A-Z][\w:]*\[.*\]):$/gm)];
  for (const [i, m] of starts.entries()) {
    if (!/^(File|Exec|Package|Service)\[/.test(m[1])) continue;
    const body = report.slice(m.index!, starts[i + 1]?.index ?? report.length);
    out.push({ ref: m[1], changed: /^ {4}changed: true$/m.test(body), failed: /^ {4}failed: true$/m.test(body) });
  }
  return out;
}

export const ansibleTool: Tool = {
  name: 'ansible',
  label: 'ansible-playbook -c local',
  managesTree: true,
  invocation(ctx) {
    const state = path.join(ctx.dir, 'state');
    const env = baseEnv({
      ANSIBLE_HOME: `${state}/home`,
      ANSIBLE_LOCAL_TEMP: `${state}/tmp`,
      ANSIBLE_REMOTE_TMP: `${state}/remote-tmp`,
      ANSIBLE_PIPELINING: 'True',
      ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3',
      ANSIBLE_RETRY_FILES_ENABLED: 'False',
      ANSIBLE_NOCOLOR: '1',
    });
    return { argv: ['ansible-playbook', '-c', 'local', '-i', 'localhost,', ctx.entry], env, cwd: ctx.dir };
  },
  judge(outcome, _phase, _expected) {
    const problems: string[] = [];
    if (outcome.code !== 0) problems.push(`exit status ${outcome.code ?? outcome.signal}: ${tail(outcome.stdout + outcome.stderr)}`);
    const recap = /localhost\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)\s+skipped=(\d+)/.exec(outcome.stdout);
    if (!recap) return { problems: [...problems, 'no PLAY RECAP line'] };
    const [ok, changed, unreachable, failed, skipped] = recap.slice(1).map(Number);
    if (unreachable || failed) problems.push(`${unreachable} unreachable, ${failed} failed`);
    // "Gathering Facts" is a task too: one more than the workload.
    return { resources: ok + skipped - 1, changed, problems };
  },
};

/**
 * CFEngine has no run summary on stdout; with -I (inform) it prints an `info:` line for every
 * repair (created, updated, permissions changed, command executed) and nothing for a kept promise.
 * The repaired objects are counted from those lines; any info line in a no-change run is a problem.
 * How many promises it evaluated is not printed: the writer's count is reported instead.
 */
export const cfengineTool: Tool = {
  name: 'cfengine',
  label: 'cf-agent -K',
  managesTree: true,
  invocation(ctx) {
    return { argv: ['cf-agent', '--no-lock', '--inform', '--file', ctx.entry], env: baseEnv() };
  },
  judge(outcome, _phase, expected) {
    const problems: string[] = [];
    if (outcome.code !== 0) problems.push(`exit status ${outcome.code ?? outcome.signal}: ${tail(outcome.stdout + outcome.stderr)}`);
    const text = outcome.stdout + outcome.stderr;
    const errors = text.split('\n').filter((l) => /^\s*(error|critical):/.test(l));
    if (errors.length) problems.push(`${errors.length} error lines: ${errors[0].trim()}`);
    return { resources: expected.resources, changed: repairedObjects(text), problems };
  },
};

export function repairedObjects(text: string): number {
  const objects = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\s*info: (.*)$/.exec(line);
    if (!m || /^(Completed execution|Last \d+ quoted lines|Command related to promiser)/.test(m[1])) continue;
    // "Executing 'no timeout' ... 'CMD'" names the command last; the other repairs name their object first.
    const object = /^Executing '[^']*' \.\.\. '(.*)'$/.exec(m[1]) ?? /'([^']*)'/.exec(m[1]);
    objects.add((object ? object[1] : m[1]).replace(/\/\.$/, ''));
  }
  return objects.size;
}

/** A floor: a script that only checks the tree another tool made (`interpreter SCRIPT TREE`). */
function floor(name: 'sh' | 'node', label: string, interpreter: string[]): Tool {
  return {
    name,
    label,
    managesTree: false,
    invocation(ctx) {
      if (!ctx.floorTree) throw new Error(`the ${name} floor needs a tree created by another tool`);
      return { argv: [...interpreter, ctx.entry, ctx.floorTree], env: baseEnv() };
    },
    judge: judgeFloor,
  };
}

export const floorTool = floor('sh', 'sh floor (checks only)', []);

/** The in-process floor (check.js): the sh floor's checks in one Node process, the least a Node tool can spend. */
export const nodeFloorTool = floor('node', 'node floor (in-process)', [process.execPath]);

export function judgeFloor(outcome: Outcome): Verdict {
  const m = /checked=(\d+) differ=(\d+)/.exec(outcome.stdout);
  if (!m) return { problems: [`no checked= line (exit ${outcome.code}): ${tail(outcome.stderr)}`] };
  const problems = outcome.code === 0 ? [] : [`exit status ${outcome.code}: ${tail(outcome.stdout)}`];
  return { resources: Number(m[1]), changed: Number(m[2]), problems };
}

export const ALL_TOOLS: Record<ToolName, Tool> = {
  govern: governTool,
  puppet: puppetTool,
  ansible: ansibleTool,
  cfengine: cfengineTool,
  sh: floorTool,
  node: nodeFloorTool,
};

function tail(text: string, lines = 3): string {
  return text.trim().split('\n').slice(-lines).join(' | ');
}
