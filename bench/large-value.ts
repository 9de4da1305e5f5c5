// Planning a state file that holds one long string value, written three ways (a plain quoted string,
// a quoted string dense with escapes and non-ASCII text, a heredoc): `govern graph --no-cache FILE`
// at several sizes, to show that time and memory grow in proportion to the input. `--baseline DIR`
// also measures another checkout (built), in the same session, and prints the ratios.
//   node dist/bench/large-value.js [--sizes 1,10,50] [--rounds 3] [--baseline /path/to/checkout]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { baseEnv, measure } from './lib/proc.js';
import { median } from './lib/stats.js';
import { GOVERN } from './lib/system.js';
import { mib, ratio, seconds, table } from './lib/table.js';

const SHAPES: Record<string, (bytes: number) => string> = {
  quoted: (bytes) => `x "a" {\n  content = "${'abcdefghij'.repeat(bytes / 10)}"\n}\n`,
  escapes: (bytes) => {
    const line = 'a line with \\"quotes\\", a \\\\ backslash, caf\u00e9 and \\u00e9\\n';
    return `x "a" {\n  content = "${line.repeat(bytes / line.length)}"\n}\n`;
  },
  heredoc: (bytes) => `x "a" {\n  content = <<EOT\n${`${'abcdefghij'.repeat(9)}\n`.repeat(bytes / 91)}EOT\n}\n`,
};

const TIMEOUT_MS = 300_000;

interface Row {
  shape: string;
  mb: number;
  wall: Record<string, number>;
  rss: Record<string, number>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1,10,50' }, rounds: { type: 'string', default: '3' }, baseline: { type: 'string' } } });
  const sizes = values.sizes!.split(',').map(Number);
  const rounds = Number(values.rounds);
  const governs: Record<string, string> = { this: GOVERN };
  if (values.baseline) governs.baseline = path.join(path.resolve(values.baseline), 'bin', 'govern');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-large-'));
  const rows: Row[] = [];
  try {
    for (const [shape, write] of Object.entries(SHAPES)) {
      for (const mb of sizes) {
        const file = path.join(root, `${shape}-${mb}.hcl`);
        fs.writeFileSync(file, write(mb * 1024 * 1024));
        const row: Row = { shape, mb, wall: {}, rss: {} };
        for (const [name, govern] of Object.entries(governs)) {
          const walls: number[] = [];
          const rsss: number[] = [];
          for (let r = 0; r < rounds; r++) {
            const o = await measure([govern, 'graph', '--no-cache', file], { env: baseEnv(), discardStdout: true, timeoutMs: TIMEOUT_MS });
            if (o.code !== 0) {
              process.stderr.write(`${name}: govern graph ${file} ${o.timedOut ? `took over ${TIMEOUT_MS / 1000} s` : `failed: ${o.stderr.trim().split('\n').slice(-1)[0]}`}\n`);
              break; // the row shows "-"
            }
            walls.push(o.wallMs);
            rsss.push(o.maxRssKb ?? NaN);
          }
          row.wall[name] = median(walls);
          row.rss[name] = median(rsss);
          process.stderr.write(`${shape} ${mb} MB ${name}: ${seconds(row.wall[name])} ${mib(row.rss[name])}\n`);
        }
        fs.rmSync(file);
        rows.push(row);
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const names = Object.keys(governs);
  const header = ['value', 'size', ...names.flatMap((n) => [`${n} time`, `${n} peak memory`])];
  if (values.baseline) header.push('time ratio', 'memory ratio');
  const body = rows.map((row) => {
    const cells = [row.shape, `${row.mb} MB`, ...names.flatMap((n) => [seconds(row.wall[n]), mib(row.rss[n])])];
    if (values.baseline) cells.push(ratio(row.wall.this / row.wall.baseline), ratio(row.rss.this / row.rss.baseline));
    return cells;
  });
  console.log(table(header, body, header.map((_, i) => (i < 1 ? 'l' : 'r'))));
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
