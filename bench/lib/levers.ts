// govern alone on the same workload under several settings, so each lever's pay shows: runner mode
// (one process per resource, or one per runner), --jobs, and the parse cache; with reference points
// for Node's own start-up, the CLI's, and planning alone.
import fs from 'node:fs';
import { MAX_ATTEMPTS, settle, type Guard } from './compare.js';
import { baseEnv, measure } from './proc.js';
import { rotate } from './stats.js';
import { GOVERN } from './system.js';
import { emptyGovernCache, governInvocation, parseGovernReport, type GovernSettings, type ToolContext } from './tools.js';

export interface LeverConfig {
  label: string;
  settings: GovernSettings;
}

export const FULL_CONFIGS: LeverConfig[] = [
  { label: 'defaults', settings: {} },
  { label: 'oneshot, --jobs 1', settings: { runnerMode: 'oneshot', jobs: 1 } },
  { label: 'oneshot, --jobs 2', settings: { runnerMode: 'oneshot', jobs: 2 } },
  { label: 'oneshot, --jobs 4', settings: { runnerMode: 'oneshot', jobs: 4 } },
  { label: 'persistent, --jobs 1', settings: { runnerMode: 'persistent', jobs: 1 } },
  { label: 'persistent, --jobs 2', settings: { runnerMode: 'persistent', jobs: 2 } },
  { label: 'persistent, --jobs 4', settings: { runnerMode: 'persistent', jobs: 4 } },
  { label: 'defaults, cold parse cache', settings: { coldCache: true } },
];

export const QUICK_CONFIGS: LeverConfig[] = [FULL_CONFIGS[0], FULL_CONFIGS[1], FULL_CONFIGS[4]];

export interface LeverSample {
  wallMs: number;
  maxRssKb?: number;
  cpuMs?: number;
  /** govern's own total (summary.duration_ms): the run without process start-up. */
  governMs?: number;
  /** Runner time per resource type, summed over resources (more than the wall time with --jobs > 1). */
  byType: Record<string, { count: number; ms: number }>;
  problems: string[];
}

export interface LeversResult {
  rounds: number;
  configs: { label: string; argv: string; samples: LeverSample[] }[];
  reference: { label: string; samples: { wallMs: number; maxRssKb?: number; cpuMs?: number }[] }[];
  /** Runs thrown away because the host disturbed the set-up during them (and repeated). */
  discarded: { label: string; round: number; disturbances: string[] }[];
}

export async function levers(ctx: ToolContext, configs: LeverConfig[], rounds: number, guard: Guard, log: (line: string) => void): Promise<LeversResult> {
  const result: LeversResult = {
    rounds,
    configs: configs.map((c) => ({ label: c.label, argv: governInvocation(ctx, c.settings).argv.slice(1).join(' '), samples: [] })),
    reference: [],
    discarded: [],
  };
  const reference: { label: string; argv: string[]; discard?: boolean }[] = [
    { label: 'node -e 0 (Node start-up)', argv: ['node', '-e', '0'] },
    { label: 'govern --help (CLI start-up)', argv: [GOVERN, '--help'], discard: true },
    { label: 'govern graph (facts, render, parse, graph)', argv: [GOVERN, 'graph', ctx.entry], discard: true },
  ];
  result.reference = reference.map((r) => ({ label: r.label, samples: [] }));

  // The tree is in place (the comparison ran, or this first run makes it): every run below changes nothing.
  fs.mkdirSync(ctx.tree, { recursive: true });
  const warm = governInvocation(ctx);
  await measure(warm.argv, { env: warm.env });

  for (let r = 0; r < rounds; r++) {
    for (const i of rotate([...configs.keys()], r)) {
      for (let attempt = 1; ; attempt++) {
        await settle(guard, log);
        if (configs[i].settings.coldCache) emptyGovernCache(ctx);
        const inv = governInvocation(ctx, configs[i].settings);
        const o = await measure(inv.argv, { env: inv.env });
        const sample = leverSample(o.stdout, o.code, o.wallMs, o.maxRssKb, o.cpuMs);
        const label = `round ${r + 1}/${rounds}  govern ${configs[i].label.padEnd(28)} ${(o.wallMs / 1000).toFixed(3).padStart(8)} s`;
        const disturbed = guard.disturbances();
        if (disturbed.length && attempt < MAX_ATTEMPTS) {
          result.discarded.push({ label: configs[i].label, round: r, disturbances: disturbed });
          log(`${label}  DISCARDED, the set-up was disturbed during the run (${disturbed.join('; ')}); repeating it`);
          continue;
        }
        if (disturbed.length) sample.problems.push(`the set-up was disturbed during the run: ${disturbed.join('; ')}`);
        result.configs[i].samples.push(sample);
        log(`${label}  ${sample.problems.join('; ') || 'ok'}`);
        break;
      }
    }
    for (const [i, ref] of reference.entries()) {
      const env = baseEnv({ GOVERN_CACHE_DIR: `${ctx.dir}/cache` });
      const o = await measure(ref.argv, { env, discardStdout: ref.discard });
      result.reference[i].samples.push({ wallMs: o.wallMs, maxRssKb: o.maxRssKb, cpuMs: o.cpuMs });
    }
  }
  return result;
}

function leverSample(stdout: string, code: number | null, wallMs: number, maxRssKb?: number, cpuMs?: number): LeverSample {
  const report = parseGovernReport(stdout);
  const problems: string[] = [];
  if (code !== 0) problems.push(`exit status ${code}`);
  const byType: LeverSample['byType'] = {};
  if (!report) return { wallMs, maxRssKb, cpuMs, byType, problems: [...problems, 'no JSON report'] };
  if (report.summary.changed || report.summary.failed) problems.push(`${report.summary.changed} changed, ${report.summary.failed} failed`);
  for (const res of report.resources) {
    const type = res.ref.slice(0, res.ref.indexOf(':'));
    const t = (byType[type] ??= { count: 0, ms: 0 });
    t.count++;
    t.ms += res.duration_ms;
  }
  return { wallMs, maxRssKb, cpuMs, governMs: report.summary.duration_ms, byType, problems };
}
