// govern diff and govern plan at fleet scale: a git repository holding a tree of N file resources
// (contents from facts), two commits (the second changes a tenth of them), and H host snapshots.
// Times `govern diff HEAD~1 HEAD --facts DIR` over all hosts, and `govern plan --facts ONE` against
// `govern graph` of the same tree with this host's facts (the snapshot is this host's own), paired
// round by round, as ratios.
//   node dist/bench/preview.js [--n 1000] [--hosts 100] [--rounds 3]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { baseEnv, measure } from './lib/proc.js';
import { median } from './lib/stats.js';
import { GOVERN } from './lib/system.js';

const TIMEOUT_MS = 600_000;

function tree(n: number, changed: boolean): string {
  let text = '';
  for (let i = 0; i < n; i++) {
    const version = changed && i % 10 === 0 ? 2 : 1;
    const fact = i % 50 === 0 ? 'hostname' : 'os/family';
    text +=
      `file "/tmp/govern-bench-preview/f${i}" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n` +
      `  contents = {{quote (concat (fact "${fact}") " v${version} ${i}\\n")}}\n}\n`;
  }
  return text;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { n: { type: 'string', default: '1000' }, hosts: { type: 'string', default: '100' }, rounds: { type: 'string', default: '3' } } });
  const n = Number(values.n);
  const hosts = Number(values.hosts);
  const rounds = Number(values.rounds);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-preview-'));
  try {
    const repo = path.join(root, 'repo');
    const states = path.join(repo, 'states');
    fs.mkdirSync(states, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', ...args], { cwd: repo });
    git('init', '-q');
    fs.writeFileSync(path.join(states, 'files.hcl'), tree(n, false));
    git('add', '-A');
    git('commit', '-qm', 'first');
    fs.writeFileSync(path.join(states, 'files.hcl'), tree(n, true));
    git('commit', '-qam', 'second');
    const own = JSON.parse(execFileSync(GOVERN, ['facts', '--json', 'hostname', 'os/family'], { encoding: 'utf8' })) as Record<string, string>;
    const snapshots = path.join(root, 'snapshots');
    fs.mkdirSync(snapshots);
    for (let h = 0; h < hosts; h++) fs.writeFileSync(path.join(snapshots, `host${String(h).padStart(3, '0')}.json`), JSON.stringify({ ...own, hostname: `host${h}` }));
    const one = path.join(root, 'own.json');
    fs.writeFileSync(one, JSON.stringify(own));

    const time = async (argv: string[], ok: number[]) => {
      const o = await measure(argv, { env: baseEnv(), cwd: repo, discardStdout: true, timeoutMs: TIMEOUT_MS });
      if (o.code === null || !ok.includes(o.code)) throw new Error(`${argv.join(' ')}: exit ${o.code}: ${o.stderr.trim().split('\n').slice(-3).join(' / ')}`);
      return o;
    };
    const diffWall: number[] = [];
    const diffCpu: number[] = [];
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    // Once untimed: the runners' descriptions go to the cache, as on any machine after a first run.
    await time([GOVERN, 'graph', states], [0]);
    for (let r = 0; r < rounds; r++) {
      const d = await time([GOVERN, 'diff', 'HEAD~1', 'HEAD', '--facts', snapshots, 'states'], [2]);
      diffWall.push(d.wallMs);
      diffCpu.push(d.cpuMs ?? NaN);
      const plan = await time([GOVERN, 'plan', '--facts', one, states], [0]);
      const graph = await time([GOVERN, 'graph', states], [0]);
      ratios.push(plan.wallMs / graph.wallMs);
      cpuRatios.push((plan.cpuMs ?? NaN) / (graph.cpuMs ?? NaN));
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    process.stdout.write(
      `| measure (${n} resources, median of ${rounds}) | figure |\n|---|---|\n` +
        `| govern diff over ${hosts} snapshots, wall | ${s(median(diffWall))} |\n` +
        `| govern diff over ${hosts} snapshots, CPU | ${s(median(diffCpu))} |\n` +
        `| govern plan (one snapshot) / govern graph, wall | ${median(ratios).toFixed(2)} |\n` +
        `| govern plan (one snapshot) / govern graph, CPU | ${median(cpuRatios).toFixed(2)} |\n`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
