// `make bench-compare REV=<git revision>`: this checkout (A) against a build of REV (B), made in a
// scratch directory, on the workloads a change to start-up or the run path moves, with the floors
// issue 40 measures govern against: `govern --help` (and `node -e 0`), no-change runs of 100 and
// 1,000 resources (the workload without its services, which need the full harness; and the sh floor,
// the in-process floor, `puppet apply` where it is installed), `govern status`, planning 10,000
// resources warm on this Node and cold and warm on Debian's Node 18 (planning-pairs.ts), peak memory,
// and the module-load test's result. Rounds rotate the order of each row's commands (lib/rounds.ts)
// and ratios are taken round by round: the machine's drift cancels. See bench/README.md, "Round four".
//
//   node dist/bench/revisions.js --rev REV [--pairs 11] [--root /tmp/govern-bench-compare]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeFloor } from './lib/writers/floor.js';
import { writeGovern } from './lib/writers/govern.js';
import { writeNodeFloor } from './lib/writers/node-floor.js';
import { writePuppet } from './lib/writers/puppet.js';
import { baseEnv, check, run, SYSTEM_PATH } from './lib/proc.js';
import { cpu, pairedRatio, peak, ratioTable, timeRounds, wall, type Row, type RowResult, type Timed } from './lib/rounds.js';
import { median } from './lib/stats.js';
import { GOVERN, REPO, governHostname, installedPackages } from './lib/system.js';
import { ratio, seconds } from './lib/table.js';
import { puppetTool } from './lib/tools.js';
import { buildWorkload } from './lib/workload.js';

interface Build {
  name: string;
  govern: string;
  cache: string;
  varDir: string;
}


/** REV's tree, built as `make build` would, in DIR; node_modules copied when REV locks the same. */
async function buildRevision(rev: string, dir: string): Promise<string> {
  // A build of the same commit left by an earlier call is used again (a commit does not change).
  const done = path.join(dir, '.bench-compare-built');
  if (fs.existsSync(done) && fs.readFileSync(done, 'utf8') === rev) return path.join(dir, 'bin', 'govern');
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
  fs.writeFileSync(done, rev);
  return path.join(dir, 'bin', 'govern');
}

/** A govern tree of N resources of bench's workload, services left out, with its floors (and Puppet's manifest). */
async function tree(root: string, n: number, hostname: string): Promise<Tree> {
  const dir = path.join(root, `tree-${n}`);
  const workload = { ...buildWorkload({ n, availablePackages: await installedPackages(), capPackages: true }), services: [] };
  fs.rmSync(dir, { recursive: true, force: true });
  const treeDir = path.join(dir, 'tree');
  fs.mkdirSync(treeDir, { recursive: true });
  const policy = writeGovern(workload, { tree: treeDir, policyDir: path.join(dir, 'policy') }).entry;
  const sh = writeFloor(workload, { tree: treeDir, policyDir: path.join(dir, 'floor') }, hostname).entry;
  const node = writeNodeFloor(workload, { tree: treeDir, policyDir: path.join(dir, 'node-floor') }, hostname).entry;
  let puppet: Timed | undefined;
  if (onPath('puppet')) {
    const ctx = { dir: path.join(dir, 'puppet'), tree: path.join(dir, 'puppet-tree'), entry: '' };
    // The manifest manages what is in the tree, not the tree's own directory (as lib/compare.ts makes it).
    fs.mkdirSync(ctx.tree, { recursive: true, mode: 0o755 });
    ctx.entry = writePuppet(workload, { tree: ctx.tree, policyDir: path.join(dir, 'puppet', 'policy') }).entry;
    const inv = puppetTool.invocation(ctx);
    await run(inv.argv, { env: inv.env }); // untimed: its first run makes its tree
    puppet = { label: 'puppet apply', argv: inv.argv, env: inv.env, okCodes: [0, 2] };
  }
  return { policy, tree: treeDir, sh, node, puppet };
}

interface Tree {
  policy: string;
  tree: string;
  sh: string;
  node: string;
  puppet?: Timed;
}

function onPath(command: string): boolean {
  return SYSTEM_PATH.split(':').some((dir) => fs.existsSync(path.join(dir, command)));
}

function envOf(b: Build): NodeJS.ProcessEnv {
  return baseEnv({ GOVERN_CACHE_DIR: b.cache, GOVERN_VAR_DIR: b.varDir });
}

/** The module-load test (test/cli/modules-loaded.test.ts) of this checkout: its closing line. */
async function moduleLoadTest(): Promise<string> {
  const test = path.join(REPO, 'dist', 'test', 'cli', 'modules-loaded.test.js');
  const r = await run([process.execPath, path.join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--reporter', 'dot', test], { cwd: REPO, env: { ...process.env } });
  const count = (what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(r.stdout)?.[1] ?? 0);
  return `${count('passing')} passed, ${count('failing')} failed${r.code === 0 ? '' : ` (exit ${r.code})`}`;
}

/** Planning 10,000 resources cold and warm on Debian's Node 18, in its mount namespace. */
async function planningOnNode18(a: string, b: string, policy: string, root: string, pairs: number): Promise<{ table: string; summary?: { cold: { cpuMs: number }; warm: { cpuMs: number } } }> {
  const script = path.join(REPO, 'dist', 'bench', 'planning-pairs.js');
  const r = await run([path.join(REPO, 'scripts', 'with-debian-node18'), '/usr/bin/node', script, '--a', a, '--b', b, '--policy', policy, '--root', root, '--pairs', String(pairs)], { env: { ...process.env } });
  if (r.code !== 0) return { table: `planning on Node 18: failed (exit ${r.code}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}` };
  const line = r.stdout.split('\n').find((l) => l.startsWith('planning-summary '));
  return { table: r.stdout.split('\n').filter((l) => !l.startsWith('planning-summary ')).join('\n').trim(), summary: line ? JSON.parse(line.slice('planning-summary '.length)) : undefined };
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
  const hostname = await governHostname();
  const [t100, t1000] = [await tree(root, 100, hostname), await tree(root, 1000, hostname)];
  const plan = path.join(root, 'plan-10000');
  fs.rmSync(plan, { recursive: true, force: true });
  // Planning only: the tree is never made, the packages may be invented names.
  writeGovern(buildWorkload({ n: 10000, availablePackages: await installedPackages() }), { tree: path.join(plan, 'tree'), policyDir: path.join(plan, 'policy') });
  const both = (argv: (b: Build) => string[], okCodes?: number[]): Timed[] => builds.map((b, i) => ({ label: i === 0 ? 'A' : 'B', argv: argv(b), env: envOf(b), okCodes }));
  const floors = (t: Tree): Timed[] => [
    { label: 'sh floor', argv: ['sh', t.sh, t.tree], env: baseEnv() },
    { label: 'in-process floor', argv: ['node', t.node, t.tree], env: baseEnv() },
  ];
  const rows: Row[] = [
    { name: 'govern --help', timed: [...both((b) => [b.govern, '--help']), { label: 'node -e 0', argv: ['node', '-e', '0'], env: baseEnv() }] },
    { name: 'no-change run, 100 resources', timed: [...both((b) => [b.govern, 'run', '--json', t100.policy]), ...floors(t100)] },
    { name: 'no-change run, 1,000 resources', timed: [...both((b) => [b.govern, 'run', '--json', t1000.policy]), ...floors(t1000), ...(t1000.puppet ? [t1000.puppet] : [])] },
    { name: 'govern status', timed: both((b) => [b.govern, 'status', '--var-dir', b.varDir], [0, 1, 2, 3]) },
    { name: `planning 10,000 resources, warm, Node ${process.version}`, timed: both((b) => [b.govern, 'graph', path.join(plan, 'policy')]) },
  ];
  for (const b of builds) {
    fs.rmSync(b.cache, { recursive: true, force: true });
    fs.mkdirSync(b.varDir, { recursive: true, mode: 0o700 });
    // Untimed: the first runs make the changes, fill each build's caches and write its record.
    for (const t of [t100, t1000]) for (let i = 0; i < 2; i++) await check([b.govern, 'run', '--json', t.policy], { env: envOf(b) }).catch((e: Error) => process.stderr.write(`${b.name}: ${e.message}\n`));
    await check([b.govern, 'graph', path.join(plan, 'policy')], { env: envOf(b) });
  }
  const results = await timeRounds(rows, pairs, (line) => process.stderr.write(`${line}\n`));
  const node18 = await planningOnNode18(GOVERN, other, path.join(plan, 'policy'), root, pairs);
  const modules = await moduleLoadTest();
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(`A = ${builds[0].name}, B = ${builds[1].name}; ${pairs} rounds, the order rotated, medians of the rounds' ratios; load average at the end ${load}\n\n`);
  process.stdout.write(`${ratioTable(results)}\n\n${node18.table}\n\n`);
  process.stdout.write(`${doneWhen(results, node18.summary, t1000.puppet !== undefined, modules)}\n`);
}

/** Issue 40's targets, each with this run's figure (CPU ratios; wall beside where the target asks for both). */
function doneWhen(results: RowResult[], node18: { cold: { cpuMs: number }; warm: { cpuMs: number } } | undefined, puppet: boolean, modules: string): string {
  const of = (row: number, x: number, f = cpu) => pairedRatio(results[row]!.outcomes[0]!, results[row]!.outcomes[x]!, f);
  const line = (what: string, value: string, met: boolean | undefined) => `- ${what}: ${value}${met === undefined ? '' : met ? ' (met)' : ' (not met)'}`;
  const peakOk = of(1, 1, peak) <= 1 && of(2, 1, peak) <= 1;
  return [
    'Done when (issue 40):',
    line('--help <= 1.1 x node -e 0 (CPU; wall)', `${ratio(of(0, 2))}; ${ratio(of(0, 2, wall))}`, of(0, 2) <= 1.1),
    line('no-change 100 <= 1.0 x the sh floor, wall and CPU', `${ratio(of(1, 2, wall))} wall, ${ratio(of(1, 2))} CPU`, of(1, 2, wall) <= 1 && of(1, 2) <= 1),
    puppet ? line('1,000 <= 0.1 x puppet apply (wall)', ratio(of(2, 4, wall)), of(2, 4, wall) <= 0.1) : '- 1,000 <= 0.1 x puppet apply: skipped (puppet is not installed)',
    line('1,000 <= 3 x the in-process floor (CPU; wall)', `${ratio(of(2, 3))}; ${ratio(of(2, 3, wall))}`, of(2, 3) <= 3),
    line('peak memory of the no-change runs <= B\'s', `100: ${ratio(of(1, 1, peak))}, 1,000: ${ratio(of(2, 1, peak))}`, peakOk),
    node18 ? line('planning 10,000 on Node 18, cold <= 2 s CPU', seconds(node18.cold.cpuMs), node18.cold.cpuMs <= 2000) : '- planning on Node 18: not measured',
    node18 ? line('planning 10,000 on Node 18, warm <= 0.7 s CPU', seconds(node18.warm.cpuMs), node18.warm.cpuMs <= 700) : '',
    line('the module-load test', modules, /^\d+ passed, 0 failed$/.test(modules)),
    `(median CPU of A, warm planning on this Node: ${seconds(median(results[4]!.outcomes[0]!.map((o) => o.cpuMs ?? NaN)))})`,
  ].filter((l) => l !== '').join('\n');
}

main().catch((e: Error) => {
  process.stderr.write(`bench-compare: ${e.message}\n`);
  process.exit(1);
});
