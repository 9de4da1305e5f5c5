// `govern test`'s reports: text for a terminal (escaped), JSON, and JUnit XML for a CI system: one
// test suite per host, a case per property (the runs, idempotence, noop fidelity) and per check.
import { terminalLine } from '../shared/terminal-text.js';
import { xml } from '../shared/xml.js';
import type { Failure, HostVerdict } from './types.js';

const STEP_WORDS = { noop: 'noop', run: 'run', rerun: 'second run' } as const;

export function hostText(v: HostVerdict): string {
  const lines = [`${v.passed ? 'passed' : 'FAILED'}: ${v.host}${v.facts !== undefined ? ` (facts from ${v.facts})` : ''}`];
  if (v.steps.length > 0) {
    const said = (s: HostVerdict['steps'][number]) =>
      !s.applied ? 'did not apply' : `${s.changed.length} ${s.step === 'noop' ? 'would change' : 'changed'}${s.failed.length > 0 ? `, ${s.failed.length} failed` : ''}`;
    lines.push(`  ${v.steps.map((s) => `${STEP_WORDS[s.step]}: ${said(s)}`).join('; ')}`);
  }
  // A failed check is shown once, among the checks.
  for (const f of v.failures.filter((f) => f.kind !== 'check-failed')) lines.push(`  ${f.kind}: ${f.message}`);
  for (const c of v.checks) lines.push(`  check "${c.name}" (${c.where}): ${c.passed ? 'passed' : 'FAILED'}: ${c.message}`);
  if (v.noopOnly.length > 0) lines.push(`  only as noop (noop = true, or after such a resource): ${v.noopOnly.join(', ')}`);
  if (v.couldOnlyNoop.length > 0) lines.push(`  could only noop: ${v.couldOnlyNoop.map((c) => `${c.ref} (${c.why})`).join(', ')}`);
  if (v.kept !== undefined) lines.push(`  kept the files the sandbox changed in ${v.kept}`);
  return lines.map(terminalLine).join('\n') + '\n';
}

export function summaryText(hosts: HostVerdict[], seconds: number): string {
  const passed = hosts.filter((h) => h.passed).length;
  return `govern test: ${hosts.length} host(s), ${passed} passed, ${hosts.length - passed} failed in ${seconds.toFixed(1)}s\n`;
}

export function testJson(hosts: HostVerdict[]): string {
  return JSON.stringify({ passed: hosts.every((h) => h.passed), hosts }, null, 2) + '\n';
}

/** Each host's cases: the runs, idempotence, noop fidelity, the sandbox, then each check. */
interface Case {
  name: string;
  failures: Failure[];
  /** Why the case was not tested: the steps it compares did not apply. */
  skipped?: string;
}

function cases(v: HostVerdict): Case[] {
  const of = (kind: Failure['kind']) => v.failures.filter((f) => f.kind === kind);
  const applied = (...steps: string[]) => steps.every((name) => v.steps.some((s) => s.step === name && s.applied));
  const unless = (ok: boolean, why: string) => (ok ? {} : { skipped: why });
  const list: Case[] = [
    { name: 'sandbox', failures: of('sandbox') },
    { name: 'runs', failures: of('run-failed') },
    { name: 'idempotence', failures: of('idempotence'), ...unless(applied('rerun'), 'the second run did not apply') },
    { name: 'noop fidelity', failures: of('noop-fidelity'), ...unless(applied('noop', 'run'), 'the noop run or the first run did not apply') },
  ].filter((c) => c.name !== 'sandbox' || c.failures.length > 0);
  for (const c of v.couldOnlyNoop) list.push({ name: c.ref, failures: [], skipped: `could only noop: ${c.why}` });
  for (const c of v.checks) list.push({ name: `check ${c.name}`, failures: c.passed ? [] : [{ kind: 'check-failed', message: `${c.where}: ${c.message}` }] });
  return list;
}

export function testJunit(hosts: HostVerdict[]): string {
  const suites = hosts.map((v) => {
    const all = cases(v);
    const failed = all.filter((c) => c.failures.length > 0).length;
    const skipped = all.filter((c) => c.skipped !== undefined).length;
    const body = all.map((c) => {
      const open = `    <testcase classname="govern.test.${xml(v.host)}" name="${xml(c.name)}"`;
      if (c.skipped !== undefined) return `${open}>\n      <skipped message="${xml(c.skipped)}"/>\n    </testcase>`;
      if (c.failures.length === 0) return `${open}/>`;
      const failures = c.failures.map((f) => `      <failure type="${f.kind}" message="${xml(f.message)}">${xml(f.message)}</failure>`);
      return [`${open}>`, ...failures, '    </testcase>'].join('\n');
    });
    return [
      `  <testsuite name="${xml(v.host)}" tests="${all.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${(v.durationMs / 1000).toFixed(3)}">`,
      ...body,
      '  </testsuite>',
    ].join('\n');
  });
  const tests = hosts.reduce((n, v) => n + cases(v).length, 0);
  const failures = hosts.reduce((n, v) => n + cases(v).filter((c) => c.failures.length > 0).length, 0);
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="govern test" tests="${tests}" failures="${failures}" errors="0">`, ...suites, '</testsuites>', ''].join('\n');
}
