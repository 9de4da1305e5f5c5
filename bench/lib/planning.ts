// Planning alone: `govern graph PATH >/dev/null` does facts -> render -> parse -> graph and
// nothing else. Measured at several sizes, with a cold cache (runners never described: a first run)
// and a warm one (the every-half-hour case), to show how time
// and memory grow with N.
import fs from 'node:fs';
import path from 'node:path';
import { generateGovernOnly } from '../generate.js';
import { baseEnv, measure, run } from './proc.js';
import { rotate } from './stats.js';
import { GOVERN } from './system.js';

export interface PlanSample {
  wallMs: number;
  maxRssKb?: number;
  cpuMs?: number;
}

export interface PlanSize {
  n: number;
  /** Rendered-before state files: bytes on disk. */
  bytes: number;
  files: number;
  cold: PlanSample[];
  warm: PlanSample[];
  problems: string[];
}

export async function planning(root: string, sizes: number[], rounds: number, log: (line: string) => void): Promise<PlanSize[]> {
  const out: PlanSize[] = [];
  for (const n of sizes) {
    const dir = path.join(root, `plan-${n}`);
    const policy = path.join(dir, 'policy');
    // The tree is never created: planning does not look at it.
    await generateGovernOnly(n, policy, path.join(dir, 'tree'));
    const files = fs.readdirSync(policy);
    const bytes = files.reduce((sum, f) => sum + fs.statSync(path.join(policy, f)).size, 0);
    const size: PlanSize = { n, bytes, files: files.length, cold: [], warm: [], problems: [] };
    // Untimed: fills the warm cache, and counts the resources in the graph.
    const first = await run([GOVERN, 'graph', policy], { env: baseEnv({ GOVERN_CACHE_DIR: path.join(dir, 'cache') }) });
    const nodes = (first.stdout.match(/^ {2}"[^"]*" \[label="\d+\. /gm) ?? []).length; // node lines; edges have labels too
    if (first.code !== 0) size.problems.push(`govern graph failed: ${first.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    else if (nodes !== n) size.problems.push(`the graph has ${nodes} resources, expected ${n}`);
    out.push(size);
  }
  for (let r = 0; r < rounds; r++) {
    for (const size of rotate(out, r)) {
      const dir = path.join(root, `plan-${size.n}`);
      const policy = path.join(dir, 'policy');
      const coldCache = path.join(dir, `cold-cache-${r}`);
      const cold = await measure([GOVERN, 'graph', policy], { env: baseEnv({ GOVERN_CACHE_DIR: coldCache }), discardStdout: true });
      fs.rmSync(coldCache, { recursive: true, force: true });
      const warm = await measure([GOVERN, 'graph', policy], { env: baseEnv({ GOVERN_CACHE_DIR: path.join(dir, 'cache') }), discardStdout: true });
      for (const o of [cold, warm]) if (o.code !== 0) size.problems.push(`govern graph exit ${o.code}`);
      size.cold.push({ wallMs: cold.wallMs, maxRssKb: cold.maxRssKb, cpuMs: cold.cpuMs });
      size.warm.push({ wallMs: warm.wallMs, maxRssKb: warm.maxRssKb, cpuMs: warm.cpuMs });
      log(`round ${r + 1}/${rounds}  govern graph, ${String(size.n).padStart(6)} resources  cold ${(cold.wallMs / 1000).toFixed(3)} s  warm ${(warm.wallMs / 1000).toFixed(3)} s`);
    }
  }
  return out;
}
