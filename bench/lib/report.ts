// The printed results: Markdown tables and the issue's targets, met or not.
import type { CompareResult, RunRecord } from './compare.js';
import type { LeversResult } from './levers.js';
import type { PlanSize } from './planning.js';
import { max, median, min } from './stats.js';
import { mib, ratio, seconds, table } from './table.js';
import { ALL_TOOLS, type Phase, type ToolName } from './tools.js';

function pick(records: RunRecord[], tool: ToolName, phase: Phase): RunRecord[] {
  return records.filter((r) => r.tool === tool && r.phase === phase);
}

const wall = (rs: { wallMs: number }[]): number[] => rs.map((r) => r.wallMs);
const cpu = (rs: { cpuMs?: number }[]): number[] => rs.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
const rss = (rs: { maxRssKb?: number }[]): number[] => rs.flatMap((r) => (r.maxRssKb === undefined ? [] : [r.maxRssKb]));

export function compareReport(c: CompareResult, tools: ToolName[], n: number): string {
  const governAgain = median(wall(pick(c.records, 'govern', 'again')));
  const governCpu = median(cpu(pick(c.records, 'govern', 'again')));
  const rows = tools.map((t) => {
    const first = pick(c.records, t, 'first');
    const again = pick(c.records, t, 'again');
    const a = wall(again);
    return [
      ALL_TOOLS[t].label,
      first.length ? seconds(median(wall(first))) : '-',
      seconds(median(a)),
      `${seconds(min(a))} – ${seconds(max(a))}`,
      seconds(median(cpu(again))),
      mib(median(rss(again))),
      t === 'govern' ? '1' : ratio(governAgain / median(a)),
      t === 'govern' ? '1' : ratio(governCpu / median(cpu(again))),
    ];
  });
  const runs = table(
    ['tool', 'first run', 'no-change run', 'no-change min – max', 'CPU (user+sys)', 'peak RSS', 'govern ÷ tool', 'govern ÷ tool (CPU)'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );

  const eq = tools.map((t) => {
    const first = pick(c.records, t, 'first');
    const again = pick(c.records, t, 'again');
    const counted = [...new Set(again.map((r) => r.verdict.resources))].map((x) => (x === undefined ? '?' : String(x))).join('/');
    const changed = (rs: RunRecord[]): string => (rs.length ? [...new Set(rs.map((r) => r.verdict.changed ?? '?'))].join('/') : '-');
    const tree = c.treeChecks[t];
    const problems = [...first, ...again].flatMap((r) => r.verdict.problems.map((p) => `${r.phase} #${r.round + 1}: ${p}`));
    if (tree) problems.push(...tree.problems.map((p) => `tree: ${p}`));
    return [
      ALL_TOOLS[t].label,
      t === 'cfengine' ? `${counted} (policy)` : counted,
      changed(first),
      changed(again),
      tree ? `${tree.resources} checked, ${tree.changed} differ` : '-',
      problems.length ? problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (+${problems.length - 3})` : '') : 'none',
    ];
  });
  const equivalence = table(['tool', 'resources', 'first run: changed', 'no-change: changed', 'tree after first run (floor script)', 'problems'], eq);

  const discarded = c.discarded.map((d) => `- round ${d.round + 1}, ${d.phase === 'first' ? 'first run' : 'no-change run'} of ${ALL_TOOLS[d.tool].label}: ${d.disturbances.join('; ')}${d.problems.length ? ` (its report: ${d.problems.slice(0, 2).join('; ')})` : ''}`);
  return [
    `### First and no-change runs, N=${n} (${c.rounds} rounds, tool order rotated; medians)`,
    '',
    runs,
    '',
    `### Equivalence (expected: ${c.expected.resources} resources; a first run changes ${c.expected.firstChanges}, a no-change run 0)`,
    '',
    equivalence,
    '',
    targets(c, tools),
    ...(discarded.length ? ['', `Runs discarded and repeated because something else on the host disturbed the set-up during them (${discarded.length}):`, '', ...discarded] : []),
  ].join('\n');
}

function targets(c: CompareResult, tools: ToolName[]): string {
  const g = median(wall(pick(c.records, 'govern', 'again')));
  if (!Number.isFinite(g)) return '';
  const lines: string[] = [`Targets of issue 9 (stated for 100 resources), no-change run at N=${c.expected.resources}:`];
  const check = (tool: ToolName, text: string, ok: (r: number) => boolean): void => {
    if (!tools.includes(tool)) return;
    const r = g / median(wall(pick(c.records, tool, 'again')));
    lines.push(`- ${text}: govern ÷ ${ALL_TOOLS[tool].label} = ${ratio(r)} -> ${ok(r) ? 'met' : 'NOT met'}`);
  };
  check('puppet', 'at most a third of puppet apply', (r) => r <= 1 / 3);
  check('ansible', 'faster than ansible-playbook -c local', (r) => r < 1);
  check('cfengine', 'faster than cf-agent', (r) => r < 1);
  check('sh', 'within 3x of the sh floor', (r) => r <= 3);
  lines.push('', `Targets of issue 18, no-change run at N=${c.expected.resources} (wall time; the CPU column above too):`);
  check('sh', 'at most 1.0 times the sh floor (stated for 100 resources)', (r) => r <= 1);
  check('node', 'at most 4 times the in-process Node floor (stated for 1,000)', (r) => r <= 4);
  check('puppet', 'at most 0.1 times puppet apply (stated for 1,000)', (r) => r <= 0.1);
  return lines.join('\n');
}

export function governBreakdown(reportJson: string | undefined): string {
  if (!reportJson) return '';
  let report: { resources: { ref: string; duration_ms: number }[]; summary: { duration_ms: number } };
  try {
    report = JSON.parse(reportJson);
  } catch {
    return '';
  }
  const byType = new Map<string, { count: number; ms: number }>();
  for (const r of report.resources) {
    const type = r.ref.slice(0, r.ref.indexOf(':'));
    const t = byType.get(type) ?? { count: 0, ms: 0 };
    t.count++;
    t.ms += r.duration_ms;
    byType.set(type, t);
  }
  const rows = [...byType].map(([type, t]) => [type, String(t.count), `${t.ms} ms`, `${(t.ms / t.count).toFixed(1)} ms`]);
  return [
    `govern's last no-change run by resource type (from --json; run total ${report.summary.duration_ms} ms):`,
    '',
    table(['type', 'resources', 'runner time (sum)', 'per resource'], rows, ['l', 'r', 'r', 'r']),
  ].join('\n');
}

export function leversReport(l: LeversResult, n: number): string {
  const types = [...new Set(l.configs.flatMap((c) => c.samples.flatMap((s) => Object.keys(s.byType))))];
  const rows = l.configs.map((c) => {
    const w = wall(c.samples);
    const last = c.samples[c.samples.length - 1];
    const problems = [...new Set(c.samples.flatMap((s) => s.problems))];
    return [
      c.label,
      seconds(median(w)),
      `${seconds(min(w))} – ${seconds(max(w))}`,
      seconds(median(cpu(c.samples))),
      mib(median(rss(c.samples))),
      `${median(c.samples.flatMap((s) => (s.governMs === undefined ? [] : [s.governMs])))} ms`,
      ...types.map((t) => (last?.byType[t] ? `${last.byType[t].ms} ms` : '-')),
      problems.join('; ') || 'ok',
    ];
  });
  const refRows = l.reference.map((r) => [r.label, seconds(median(wall(r.samples))), seconds(median(cpu(r.samples))), mib(median(rss(r.samples)))]);
  return [
    `### govern alone, N=${n}, no-change run (${l.rounds} rounds, settings rotated; medians)`,
    '',
    table(
      ['setting', 'wall', 'min – max', 'CPU (user+sys)', 'peak RSS', 'govern total (--json)', ...types.map((t) => `${t} (sum)`), 'checks'],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', ...types.map(() => 'r' as const), 'l'],
    ),
    '',
    'Reference points (same rounds):',
    '',
    table(['command', 'wall', 'CPU (user+sys)', 'peak RSS'], refRows, ['l', 'r', 'r', 'r']),
    ...(l.discarded.length
      ? ['', `Runs discarded and repeated because the set-up was disturbed during them: ${l.discarded.map((d) => `${d.label} (round ${d.round + 1}: ${d.disturbances.join('; ')})`).join(', ')}`]
      : []),
  ].join('\n');
}

export function planningReport(sizes: PlanSize[]): string {
  const rows = sizes.map((s) => [
    String(s.n),
    `${s.files} files, ${(s.bytes / 1024).toFixed(0)} KiB`,
    seconds(median(wall(s.cold))),
    seconds(median(cpu(s.cold))),
    mib(median(rss(s.cold))),
    seconds(median(wall(s.warm))),
    seconds(median(cpu(s.warm))),
    mib(median(rss(s.warm))),
    s.problems.join('; ') || 'ok',
  ]);
  const lines = [
    `### Planning alone: govern graph PATH >/dev/null (${sizes[0]?.cold.length ?? 0} rounds; medians)`,
    '',
    table(['resources', 'state files', 'cold cache', 'CPU', 'peak RSS', 'warm cache', 'CPU', 'peak RSS', 'checks'], rows, ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']),
    '',
    'Growth between sizes (per 1,000 resources added):',
    '',
  ];
  const growth: string[][] = [];
  for (let i = 1; i < sizes.length; i++) {
    const a = sizes[i - 1];
    const b = sizes[i];
    const k = (b.n - a.n) / 1000;
    const slope = (f: (s: PlanSize) => number): number => (f(b) - f(a)) / k;
    growth.push([
      `${a.n} -> ${b.n}`,
      `${slope((s) => median(wall(s.cold))).toFixed(0)} ms`,
      `${slope((s) => median(cpu(s.cold))).toFixed(0)} ms`,
      `${(slope((s) => median(rss(s.cold))) / 1024).toFixed(1)} MiB`,
      `${slope((s) => median(wall(s.warm))).toFixed(0)} ms`,
      `${slope((s) => median(cpu(s.warm))).toFixed(0)} ms`,
      `${(slope((s) => median(rss(s.warm))) / 1024).toFixed(1)} MiB`,
    ]);
  }
  lines.push(
    table(
      ['sizes', 'cold: wall', 'cold: CPU', 'cold: memory', 'warm: wall', 'warm: CPU', 'warm: memory'],
      growth,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  const big = sizes.find((s) => s.n === 10_000);
  if (big) {
    const cold = median(wall(big.cold));
    const warm = median(wall(big.warm));
    lines.push('', `Target (issue 9): planning 10,000 resources under 2 s -> cold cache ${seconds(cold)} ${cold < 2000 ? 'met' : 'NOT met'}, warm cache ${seconds(warm)} ${warm < 2000 ? 'met' : 'NOT met'}`);
  }
  return lines.join('\n');
}
