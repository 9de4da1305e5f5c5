// `make bench`: govern against puppet apply, ansible-playbook -c local, cf-agent, the sh floor and the in-process Node floor
// on the same workload (first runs, then no-change runs, rounds interleaved), govern alone under
// each lever (runner mode, --jobs, runner cache), and planning alone at 100 to 10,000 resources.
// Everything it sets up (trees, policies, init scripts, rc links) is removed when it ends, even
// after a failure or an interrupt. See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_ROOT, generate, parseTools } from './generate.js';
import { compare, contextsFor, type CompareResult } from './lib/compare.js';
import { Harness } from './lib/harness.js';
import { FULL_CONFIGS, levers, QUICK_CONFIGS, type LeversResult } from './lib/levers.js';
import { planning, type PlanSize } from './lib/planning.js';
import { ensurePrerequisites } from './lib/prereq.js';
import { baseEnv, Interrupted, killRunning, run } from './lib/proc.js';
import { compareReport, governBreakdown, leversReport, planningReport } from './lib/report.js';
import { GOVERN, REPO } from './lib/system.js';
import { ALL_TOOLS, TOOLS, type ToolName } from './lib/tools.js';
import { firstRunChanges, resourceCount } from './lib/workload.js';

const SECTIONS = ['compare', 'levers', 'plan'] as const;
type Section = (typeof SECTIONS)[number];

const USAGE = `usage: node dist/bench/run.js [options]      (make bench ARGS="...")

  --rounds R          rounds of every measurement (default 5; --quick 1)
  --n N               resources in the comparison and the levers (default 100)
  --cap-packages      above the host's installed packages, give the rest of their share to files
  --tools LIST        tools compared (default ${TOOLS.join(',')})
  --sections LIST     ${SECTIONS.join(',')} (default all): the comparison, govern alone under
                      each lever (--runner-mode, --jobs, runner cache), planning alone
  --levers            the same as --sections levers
  --plan-sizes LIST   resources for planning alone (default 100,1000,10000; --quick 100,1000)
  --quick             one round, three lever settings, planning up to 1,000: for development
  --root DIR          where trees and policies go (default ${DEFAULT_ROOT}; removed at the end)
  --out FILE          also write every sample as JSON
  --from FILE         print the tables of a JSON file written by --out, and run nothing
  -h, --help`;

interface Options {
  rounds: number;
  n: number;
  tools: ToolName[];
  sections: Section[];
  planSizes: number[];
  quick: boolean;
  capPackages: boolean;
  root: string;
  out?: string;
}

function options(): Options | undefined {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      n: { type: 'string', default: '100' },
      tools: { type: 'string', default: TOOLS.join(',') },
      sections: { type: 'string', default: SECTIONS.join(',') },
      levers: { type: 'boolean' },
      'plan-sizes': { type: 'string' },
      quick: { type: 'boolean' },
      'cap-packages': { type: 'boolean' },
      root: { type: 'string', default: DEFAULT_ROOT },
      out: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return undefined;
  }
  if (values.from) {
    printSaved(values.from);
    return undefined;
  }
  const quick = values.quick ?? false;
  const sections = (values.levers ? 'levers' : values.sections!).split(',').map((s) => s.trim());
  for (const s of sections) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`unknown section "${s}" (known: ${SECTIONS.join(', ')})`);
  const int = (text: string, what: string): number => {
    const v = Number(text);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${what} must be a positive integer, not "${text}"`);
    return v;
  };
  return {
    rounds: int(values.rounds ?? (quick ? '1' : '5'), '--rounds'),
    n: int(values.n!, '--n'),
    tools: parseTools(values.tools!),
    sections: sections as Section[],
    planSizes: (values['plan-sizes'] ?? (quick ? '100,1000' : '100,1000,10000')).split(',').map((s) => int(s.trim(), '--plan-sizes')),
    quick,
    capPackages: values['cap-packages'] ?? false,
    root: values.root!,
    out: values.out,
  };
}

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  const opts = options();
  if (!opts) return 0;
  if (process.getuid?.() !== 0) throw new Error('the benchmark runs as root (it installs init scripts, and the peers manage packages and services)');
  if (!fs.existsSync(`${REPO}/dist/bundle/govern.js`)) throw new Error('govern is not built: run make bench (or make build first)');
  const wants = (s: Section): boolean => opts.sections.includes(s);
  if (wants('compare') && !opts.tools.some((t) => ALL_TOOLS[t].managesTree)) throw new Error('--tools needs a tool besides the floors (sh, node): they check a tree another tool made');

  await ensurePrerequisites(wants('compare') ? opts.tools : [], log);
  const harness = new Harness(opts.root, log);
  let problems = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`\n${signal}: stopping the running tool and cleaning up`);
    killRunning();
    for (const p of harness.cleanup()) log(`cleanup: ${p}`);
    process.exit(130);
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, onSignal);

  harness.prepare();
  const results: Record<string, unknown> = { date: new Date().toISOString(), machine: await machine(), options: opts };
  try {
    console.log(header(results.machine as Machine, opts));
    if (wants('compare') || wants('levers')) {
      const tools = [...new Set<ToolName>([...(wants('compare') ? opts.tools : []), 'govern', 'sh'])];
      const g = await generate({ n: opts.n, root: opts.root, tools, capPackages: opts.capPackages });
      if (g.packagesLeftOut) log('warning: this checkout has no runners/pkg: packages are left out of every workload (their share goes to files)');
      const invented = g.workload.packages.filter((p) => p.startsWith('govern-bench-absent-pkg'));
      if (invented.length) throw new Error(`N=${opts.n} needs ${g.workload.packages.length} installed packages; this host has ${g.workload.packages.length - invented.length} usable ones (measure planning alone at larger N, or give --cap-packages)`);
      harness.installServices(g.workload.services);
      const expected = { resources: resourceCount(g.workload), firstChanges: firstRunChanges(g.workload) };
      const entries = Object.fromEntries(Object.entries(g.policies).map(([t, p]) => [t, p.entry]));
      const floorOwner = opts.tools.includes('govern') ? 'govern' : opts.tools.find((t) => ALL_TOOLS[t].managesTree)!;
      const contexts = contextsFor(opts.root, entries, floorOwner);
      console.log(`Workload: ${describe(g.workload)}; host name fact "${g.hostname}".\n`);

      if (wants('compare')) {
        const c = await compare({ tools: opts.tools, contexts, expected, rounds: opts.rounds, guard: harness, log });
        results.compare = c;
        console.log(compareReport(c, opts.tools, opts.n));
        console.log('');
        console.log(governBreakdown(c.governLastReport));
        console.log('');
        problems += c.records.reduce((k, r) => k + r.verdict.problems.length, 0);
        problems += Object.values(c.treeChecks).reduce((k, v) => k + (v?.problems.length ?? 0), 0);
      }
      if (wants('levers')) {
        const l = await levers(contexts.govern, opts.quick ? QUICK_CONFIGS : FULL_CONFIGS, opts.rounds, harness, log);
        results.levers = l;
        console.log(leversReport(l, opts.n));
        console.log('');
        problems += l.configs.reduce((k, c) => k + c.samples.reduce((j, s) => j + s.problems.length, 0), 0);
      }
    }
    if (wants('plan')) {
      const p = await planning(opts.root, opts.planSizes, opts.rounds, log);
      results.plan = p;
      console.log(planningReport(p));
      console.log('');
      problems += p.reduce((k, s) => k + s.problems.length, 0);
    }
  } finally {
    if (opts.out) fs.writeFileSync(opts.out, JSON.stringify(results, null, 2) + '\n');
    const left = harness.cleanup();
    for (const p of left) log(`cleanup: ${p}`);
  }
  log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  if (problems) log(`${problems} problems found (see the tables): the runs were not all equivalent or not all clean`);
  return problems ? 1 : 0;
}

interface Saved {
  date: string;
  machine: Machine;
  options: Options;
  compare?: CompareResult;
  levers?: LeversResult;
  plan?: PlanSize[];
}

function printSaved(file: string): void {
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Saved;
  console.log(header(saved.machine, saved.options, saved.date));
  if (saved.compare) console.log(`${compareReport(saved.compare, saved.options.tools, saved.options.n)}\n\n${governBreakdown(saved.compare.governLastReport)}\n`);
  if (saved.levers) console.log(`${leversReport(saved.levers, saved.options.n)}\n`);
  if (saved.plan) console.log(`${planningReport(saved.plan)}\n`);
}

function describe(w: { directories: unknown[]; files: unknown[]; execs: unknown[]; packages: unknown[]; services: unknown[] }): string {
  return `${w.files.length} files, ${w.directories.length} directories, ${w.execs.length} execs (creates), ${w.packages.length} packages, ${w.services.length} sysv services`;
}

interface Machine {
  /** 1, 5 and 15 minute load averages when the benchmark started: other work on the host skews the figures. */
  load: number[];
  cpus: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  govern: string;
  versions: Record<string, string>;
}

async function machine(): Promise<Machine> {
  const first = async (argv: string[]): Promise<string> => {
    try {
      const o = await run(argv, { env: baseEnv(), cwd: REPO });
      return (o.stdout || o.stderr).trim().split('\n')[0] ?? '';
    } catch (e) {
      if (e instanceof Interrupted) throw e;
      return 'not installed';
    }
  };
  return {
    load: os.loadavg().map((l) => Math.round(l * 100) / 100),
    cpus: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    node: process.version,
    govern: await first(['git', 'log', '-1', '--format=%h %s']),
    versions: {
      puppet: await first(['puppet', '--version']),
      ansible: await first(['ansible-playbook', '--version']),
      cfengine: await first(['cf-agent', '--version']),
    },
  };
}

function header(m: Machine, o: Options, date = new Date().toISOString()): string {
  return [
    `## govern benchmark, ${date.slice(0, 10)}`,
    '',
    `Machine: ${m.cpus} cores, ${m.memoryGiB} GiB, Linux ${m.kernel}; Node ${m.node}; ${m.versions.puppet ? `puppet ${m.versions.puppet}` : ''}, ${m.versions.ansible}, ${m.versions.cfengine}.`,
    `govern: ${m.govern} (${GOVERN}). Rounds: ${o.rounds}. Load average at the start: ${m.load.join(', ')}.`,
    '',
  ].join('\n');
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof Interrupted) return;
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
