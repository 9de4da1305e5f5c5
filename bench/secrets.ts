// A run that changes nothing, 100 file resources of which 20 take a value from data, three ways:
// the 20 values in plain text (`plain`), in plain text with the 20 resources `sensitive = true`
// (`sensitive`: what a secret's taint costs), and encrypted with age to the host (`encrypted`:
// the taint plus the decryption). Rounds alternate the three; the table gives medians of CPU time
// (less disturbed by other work on the host than wall time) and wall time, and the ratios as
// medians of each round's ratios: the three runs of a round are back to back, so a ratio taken
// within a round holds when the machine's speed drifts between rounds, and the median of many such
// ratios is finer than the 10 ms steps in which the CPU time of one run is read.
//   node dist/bench/secrets.js [--rounds 7]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { encrypt } from '../src/secrets/age.js';
import { formatEncrypted } from '../src/secrets/format.js';
import { baseEnv, measure } from './lib/proc.js';
import { median, rotate } from './lib/stats.js';
import { GOVERN } from './lib/system.js';
import { ratio, seconds, table } from './lib/table.js';

const VARIANTS = ['plain', 'sensitive', 'encrypted'] as const;
type Variant = (typeof VARIANTS)[number];

function writeTree(root: string, variant: Variant, hostKey: string): string {
  const tree = path.join(root, variant);
  fs.mkdirSync(path.join(tree, 'data'), { recursive: true });
  fs.mkdirSync(path.join(tree, 'out'));
  fs.writeFileSync(path.join(tree, 'hierarchy.hcl'), 'levels = ["common"]\n');
  const data = Array.from({ length: 20 }, (_, i) => {
    const value = `secret-value-${i}`;
    return `s${i} = "${variant === 'encrypted' ? formatEncrypted({ to: ['host'], ciphertext: encrypt(value, [hostKey]) }) : value}"\n`;
  });
  fs.writeFileSync(path.join(tree, 'data/common.hcl'), data.join(''));
  const site = Array.from({ length: 100 }, (_, i) => {
    const contents = i < 20 ? `{{data "s${i}"}}\\n` : `plain ${i}\\n`;
    const sensitive = i < 20 && variant === 'sensitive' ? '  sensitive = true\n' : '';
    return `file "${tree}/out/f${i}" {\n  ensure = "present"\n  contents = "${contents}"\n  owner = "root"\n  group = "root"\n  mode = "0600"\n${sensitive}}\n`;
  });
  fs.writeFileSync(path.join(tree, 'site.hcl'), site.join(''));
  return tree;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
  const rounds = Number(values.rounds);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-secrets-'));
  try {
    const key = path.join(root, 'host_ed25519_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const hostKey = fs.readFileSync(`${key}.pub`, 'utf8').trim();
    const argv = (v: Variant) => [GOVERN, 'run', '--identity', key, '--cache-dir', path.join(root, `cache-${v}`), '--var-dir', path.join(root, `var-${v}`), writeTree(root, v, hostKey)];
    const commands = Object.fromEntries(VARIANTS.map((v) => [v, argv(v)])) as Record<Variant, string[]>;
    const cpu: Record<Variant, number[]> = { plain: [], sensitive: [], encrypted: [] };
    const wall: Record<Variant, number[]> = { plain: [], sensitive: [], encrypted: [] };
    for (let r = -1; r < rounds; r++) {
      for (const v of rotate(VARIANTS, Math.max(r, 0))) {
        const o = await measure(commands[v], { env: baseEnv(), discardStdout: true, timeoutMs: 120_000 });
        if (o.code !== 0) throw new Error(`${v}: govern run exited ${o.code}: ${o.stderr.trim()}`);
        if (r < 0) continue; // the first run applies; the rounds measure runs that change nothing
        cpu[v].push(o.cpuMs ?? NaN);
        wall[v].push(o.wallMs);
      }
    }
    const paired = (v: Variant, base: Variant) => median(cpu[v].map((c, r) => c / cpu[base][r]));
    const rows = VARIANTS.map((v) => [v, seconds(median(cpu[v])), seconds(median(wall[v])), ratio(paired(v, 'plain')), ratio(paired(v, 'sensitive'))]);
    console.log(table(['values', 'CPU', 'wall', 'CPU / plain', 'CPU / sensitive'], rows, ['l', 'r', 'r', 'r', 'r']));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
