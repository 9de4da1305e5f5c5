// `make bench-compare REV=<git revision>`: this checkout against a build of REV, made in a scratch
// directory, on the workloads a change to start-up or the run path moves: `govern --help`, no-change
// runs of 100 and 1,000 resources (the workload without its services, which need the full
// harness), `govern status`, and planning 10,000 resources (`govern graph`, warm cache). Each pair
// runs both builds back to back, the order alternating, and the ratio of each pair is taken: the
// machine's drift between pairs cancels. See bench/README.md, "Start-up, round three".
//
//   node dist/bench/revisions.js --rev REV [--pairs 11] [--root /tmp/govern-bench-compare]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeGovern } from './lib/writers/govern.js';
import { baseEnv, check, measure, type Outcome } from './lib/proc.js';
import { median } from './lib/stats.js';
import { GOVERN, REPO, installedPackages } from './lib/system.js';
import { mib, ratio, seconds, table } from './lib/table.js';
import { buildWorkload } from './lib/workload.js';

interface Build {
  name: string;
  govern: string;
  cache: string;
  varDir: string;
}

interface Workload {
  name: string;
  argv: (b: Build) => string[];
}

/** REV's tree, built as `make build` would, in DIR; node_modules copied when REV locks the same. */
async function buildRevision(rev: string, dir: string): Promise<string> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const archive = execFileSync('git', ['-C', REPO, 'archive', '--format=tar', rev], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir, '--no-same-permissions'], { input: archive });
  // govern refuses to run runners from a directory others can write (docs/runners.md): the tar's
  // modes under this umask must not make it so.
  execFileSync('chmod', ['-R', 'go-w', dir]);
  const lock = (root: string): string => fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  if (lock(dir) === lock(REPO)) execFileSync('cp', ['-a', path.join(REPO, 'node_modules'), dir]);
  else await check(['npm', 'ci', '--no-audit', '--no-fund'], { cwd: dir, env: { ...process.env } });
  await check(['npx', 'tsc', '-p', 'tsconfig.json'], { cwd: dir, env: { ...process.env } });
  await check(['node', 'scripts/bundle.js'], { cwd: dir, env: { ...process.env } });
  return path.join(dir, 'bin', 'govern');
}

/** A govern tree of N resources of bench's workload, services left out. */
async function tree(root: string, n: number): Promise<string> {
  const dir = path.join(root, `tree-${n}`);
  const workload = { ...buildWorkload({ n, availablePackages: await installedPackages(), capPackages: true }), services: [] };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'tree'), { recursive: true });
  writeGovern(workload, { tree: path.join(dir, 'tree'), policyDir: path.join(dir, 'policy') });
  return path.join(dir, 'policy');
}

function envOf(b: Build): NodeJS.ProcessEnv {
  return baseEnv({ GOVERN_CACHE_DIR: b.cache, GOVERN_VAR_DIR: b.varDir });
}

interface Pairs {
  a: Outcome[];
  b: Outcome[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rev: { type: 'string' }, pairs: { type: 'string', default: '11' }, root: { type: 'string', default: '/tmp/govern-bench-compare' } } });
  if (values.rev === undefined) throw new Error('usage: node dist/bench/revisions.js --rev REV [--pairs 11] [--root DIR]');
  const pairs = Number(values.pairs);
  const root = path.resolve(values.root);
  const rev = execFileSync('git', ['-C', REPO, 'rev-parse', '--short', `${values.rev}^{commit}`], { encoding: 'utf8' }).trim();
  process.stderr.write(`building ${rev} in ${root}/build\n`);
  const other = await buildRevision(rev, path.join(root, 'build'));
  const here = execFileSync('git', ['-C', REPO, 'describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
  const builds: [Build, Build] = [
    { name: `this checkout (${here})`, govern: GOVERN, cache: path.join(root, 'cache-a'), varDir: path.join(root, 'var-a') },
    { name: rev, govern: other, cache: path.join(root, 'cache-b'), varDir: path.join(root, 'var-b') },
  ];
  const [t100, t1000] = [await tree(root, 100), await tree(root, 1000)];
  const plan = path.join(root, 'plan-10000');
  fs.rmSync(plan, { recursive: true, force: true });
  // Planning only: the tree is never made, the packages may be invented names.
  writeGovern(buildWorkload({ n: 10000, availablePackages: await installedPackages() }), { tree: path.join(plan, 'tree'), policyDir: path.join(plan, 'policy') });
  const workloads: Workload[] = [
    { name: 'govern --help', argv: (b) => [b.govern, '--help'] },
    { name: 'no-change run, 100 resources', argv: (b) => [b.govern, 'run', '--json', t100] },
    { name: 'no-change run, 1,000 resources', argv: (b) => [b.govern, 'run', '--json', t1000] },
    { name: 'govern status', argv: (b) => [b.govern, 'status', '--var-dir', b.varDir] },
    { name: 'planning 10,000 resources (warm)', argv: (b) => [b.govern, 'graph', path.join(plan, 'policy')] },
  ];
  for (const b of builds) {
    fs.rmSync(b.cache, { recursive: true, force: true });
    fs.mkdirSync(b.varDir, { recursive: true, mode: 0o700 });
    // Untimed: the first runs make the changes, fill each build's caches and write its record.
    for (const w of workloads) await check(w.argv(b), { env: envOf(b) }).catch((e: Error) => process.stderr.write(`${b.name}: ${w.name}: ${e.message}\n`));
    for (const t of [t100, t1000]) await check([b.govern, 'run', '--json', t], { env: envOf(b) });
  }
  const results = new Map<string, Pairs>(workloads.map((w) => [w.name, { a: [], b: [] }]));
  for (let p = 0; p < pairs; p++) {
    for (const w of workloads) {
      const order = p % 2 === 0 ? [0, 1] : [1, 0];
      const got: Outcome[] = [];
      for (const i of order) got[i] = await measure(w.argv(builds[i]!), { env: envOf(builds[i]!), discardStdout: true });
      for (const o of got) if (o.code !== 0 && !(w.name === 'govern status' && o.code !== null && o.code <= 3)) throw new Error(`${o.argv.join(' ')}: exit ${o.code}\n${o.stderr}`);
      results.get(w.name)!.a.push(got[0]!);
      results.get(w.name)!.b.push(got[1]!);
    }
    process.stderr.write(`pair ${p + 1}/${pairs}\n`);
  }
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(`A = ${builds[0].name}, B = ${builds[1].name}; ${pairs} pairs, medians; load average at the end ${load}\n\n`);
  const rows = workloads.map((w) => {
    const { a, b } = results.get(w.name)!;
    const each = (f: (o: Outcome) => number | undefined): number => median(a.map((o, i) => (f(o) ?? NaN) / (f(b[i]!) ?? NaN)));
    const ms = (os: Outcome[], f: (o: Outcome) => number | undefined): string => seconds(median(os.map((o) => f(o) ?? NaN)));
    const peak = (os: Outcome[]): string => mib(median(os.map((o) => o.maxRssKb ?? NaN)));
    return [w.name, ms(a, (o) => o.wallMs), ms(b, (o) => o.wallMs), ratio(each((o) => o.wallMs)), ms(a, (o) => o.cpuMs), ms(b, (o) => o.cpuMs), ratio(each((o) => o.cpuMs)), `${peak(a)} / ${peak(b)}`];
  });
  process.stdout.write(`${table(['workload', 'A wall', 'B wall', 'A/B wall', 'A CPU', 'B CPU', 'A/B CPU', 'peak memory A / B'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])}\n`);
}

main().catch((e: Error) => {
  process.stderr.write(`bench-compare: ${e.message}\n`);
  process.exit(1);
});
