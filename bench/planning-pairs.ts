// Planning a tree (`govern graph`) with two builds, cold (a fresh, empty cache every run: a tree never
// planned) and warm (the cache of the last run), paired round by round (lib/rounds.ts), with the
// Node.js this process runs on: `make bench-compare` starts it through scripts/with-debian-node18 for
// Debian 12's Node 18, the oldest govern supports. Prints the table, and one JSON line of the medians.
//
//   node dist/bench/planning-pairs.js --a GOVERN --b GOVERN --policy DIR --root DIR [--pairs 11]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { baseEnv, check } from './lib/proc.js';
import { cpu, pairedRatio, ratioTable, timeRounds, wall, type Row } from './lib/rounds.js';
import { median } from './lib/stats.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { a: { type: 'string' }, b: { type: 'string' }, policy: { type: 'string' }, root: { type: 'string' }, pairs: { type: 'string', default: '11' } } });
  if (!values.a || !values.b || !values.policy || !values.root) throw new Error('usage: node dist/bench/planning-pairs.js --a GOVERN --b GOVERN --policy DIR --root DIR [--pairs 11]');
  const builds = [
    { label: 'A', govern: values.a, dir: path.join(values.root, 'node-a') },
    { label: 'B', govern: values.b, dir: path.join(values.root, 'node-b') },
  ];
  const rows: Row[] = ['cold', 'warm'].map((kind) => ({
    name: `planning 10,000 resources, ${kind}, Node ${process.version}`,
    timed: builds.map((b) => {
      const cache = path.join(b.dir, kind === 'cold' ? 'cold-cache' : 'cache');
      return {
        label: b.label,
        argv: [process.execPath, b.govern, 'graph', values.policy!],
        env: baseEnv({ GOVERN_CACHE_DIR: cache }),
        before: kind === 'cold' ? () => fs.rmSync(cache, { recursive: true, force: true }) : undefined,
      };
    }),
  }));
  for (const b of builds) {
    fs.rmSync(b.dir, { recursive: true, force: true });
    fs.mkdirSync(b.dir, { recursive: true, mode: 0o700 });
    // Untimed: fills the warm cache.
    await check([process.execPath, b.govern, 'graph', values.policy], { env: baseEnv({ GOVERN_CACHE_DIR: path.join(b.dir, 'cache') }) });
  }
  const results = await timeRounds(rows, Number(values.pairs), (line) => process.stderr.write(`Node ${process.version}: ${line}\n`));
  process.stdout.write(`${ratioTable(results)}\n`);
  const summary = Object.fromEntries(
    results.map(({ row, outcomes }) => [row.name.includes('cold') ? 'cold' : 'warm', { cpuMs: median(outcomes[0]!.map((o) => o.cpuMs ?? NaN)), wallMs: median(outcomes[0]!.map(wall)), cpuRatio: pairedRatio(outcomes[0]!, outcomes[1]!, cpu) }]),
  );
  process.stdout.write(`planning-summary ${JSON.stringify({ node: process.version, ...summary })}\n`);
}

main().catch((e: Error) => {
  process.stderr.write(`planning-pairs: ${e.message}\n`);
  process.exit(1);
});
