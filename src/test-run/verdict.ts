// The verdict on one host from what the sandbox found: a run that failed, a second run that changed
// something (idempotence), a noop whose predictions differ from what the real run did, resource by
// resource (noop fidelity), a check that failed. Every failure names its resources.
import type { ResourceReport, RunReport } from '../report/types.js';
import type { Failure, HostVerdict, SandboxResult, StepName, StepResult } from './types.js';

const STEP_WORDS: Record<StepName, string> = { noop: 'the noop run', run: 'the first run', rerun: 'the second run' };

/** Held back by `noop = true` (or after such a resource) in a real run: it changed nothing by design. */
function held(r: ResourceReport): boolean {
  return r.would_change !== undefined;
}

function refs(report: RunReport | undefined, keep: (r: ResourceReport) => boolean): string[] {
  return (report?.resources ?? []).filter(keep).map((r) => r.ref);
}

/**
 * A resource that failed in the noop run but not in the real run is the noop's misprediction (often:
 * it comes after a change the noop did not make, a package from a source not yet added), reported
 * under noop fidelity; one that failed in both is the real run's failure.
 */
function runFailures(step: StepResult, run: RunReport | undefined): Failure[] {
  const words = STEP_WORDS[step.step];
  if (step.report === undefined) return [{ kind: 'run-failed', message: `${words} did not report: ${step.error ?? `govern exited ${step.exit}`}` }];
  const failures: Failure[] = [];
  const errors = step.report.errors.map((e) => (e.file !== undefined ? `${e.file}${e.line !== undefined ? `:${e.line}` : ''}: ${e.message}` : e.message));
  if (errors.length > 0) failures.push({ kind: 'run-failed', message: `${words} stopped before applying: ${errors.join('; ')}` });
  const failed = step.report.resources.filter((r) => r.status === 'failed' && !(step.step === 'noop' && run !== undefined));
  if (failed.length > 0) {
    const skipped = refs(step.report, (r) => r.status === 'skipped');
    const detail = failed.map((r) => `${r.ref} (${r.where}): ${r.message}`).join('; ');
    failures.push({
      kind: 'run-failed',
      message: `${words}: ${failed.length} resource(s) failed: ${detail}${skipped.length > 0 ? `; skipped after them: ${skipped.join(', ')}` : ''}`,
      resources: failed.map((r) => r.ref),
    });
  }
  const notifications = step.report.notifications.filter((n) => n.status === 'failed');
  for (const n of notifications) failures.push({ kind: 'run-failed', message: `${words}: notification ${n.signal} to ${n.to} failed: ${n.message}`, resources: [n.to] });
  return failures;
}

/** Changed in the second run: the tree does not converge. */
function idempotence(rerun: RunReport | undefined): Failure[] {
  const changed = (rerun?.resources ?? []).filter((r) => r.status === 'changed' && !held(r));
  if (changed.length === 0) return [];
  const detail = changed.map((r) => `${r.ref} (${r.where})${r.message ? `: ${r.message}` : ''}`).join('; ');
  return [{ kind: 'idempotence', message: `the second run changed ${changed.length} resource(s): ${detail}`, resources: changed.map((r) => r.ref) }];
}

/** What the noop said of each resource against what the first real run did, where both ran it. */
function fidelity(noop: RunReport | undefined, run: RunReport | undefined): Failure[] {
  if (noop === undefined || run === undefined) return [];
  const predicted = new Map(noop.resources.map((r) => [r.ref, r]));
  const lied: string[] = [];
  const details: string[] = [];
  for (const real of run.resources) {
    const said = predicted.get(real.ref);
    if (said === undefined || held(real) || !comparable(real)) continue;
    if (said.status === 'failed') {
      lied.push(real.ref);
      details.push(`${real.ref} (${real.where}): the noop failed (${said.message}), the run ${real.status === 'changed' ? 'changed it' : 'found nothing to change'}`);
      continue;
    }
    if (!comparable(said)) continue;
    const wouldChange = said.status === 'changed';
    const changed = real.status === 'changed';
    if (wouldChange === changed) continue;
    lied.push(real.ref);
    details.push(`${real.ref} (${real.where}): ${wouldChange ? 'the noop said it would change, the run changed nothing' : 'the run changed it, the noop said it would not'}`);
  }
  if (lied.length === 0) return [];
  return [{ kind: 'noop-fidelity', message: `the noop run mispredicted ${lied.length} resource(s): ${details.join('; ')}`, resources: lied }];
}

function comparable(r: ResourceReport): boolean {
  return r.status === 'changed' || r.status === 'unchanged';
}

/** The runs' `where` (`/srv/tree/main.hcl:3`) relative to the tree, as the checks' are. */
function relative(result: SandboxResult, root: string): SandboxResult {
  const strip = (where: string) => (where.startsWith(root + '/') ? where.slice(root.length + 1) : where);
  const steps = result.steps.map((s) => (s.report ? { ...s, report: { ...s.report, resources: s.report.resources.map((r) => ({ ...r, where: strip(r.where) })) } } : s));
  return { ...result, steps };
}

const NO_SYSTEMD = 'no systemd in the sandbox';

/**
 * Without systemd in the sandbox, a service that needs it fails in every run: the systemd provider's
 * failures (they name systemctl or a unit file), and a service whose only definition is a unit of the
 * tree. Those are reported as could only noop, not as failures; their noop run's word is all there is.
 */
function withoutSystemd(result: SandboxResult): { result: SandboxResult; couldOnlyNoop: HostVerdict['couldOnlyNoop'] } {
  if (result.systemd === true) return { result, couldOnlyNoop: [] };
  const units = new Set(result.steps.flatMap((s) => refs(s.report, (r) => r.ref.startsWith('unit:'))));
  const needs = (r: ResourceReport) =>
    r.ref.startsWith('service:') && r.status === 'failed' && (/\b(systemctl|systemd|unit file)\b/.test(r.message ?? '') || units.has(`unit:${r.ref.slice('service:'.length)}.service`));
  const refsOf = new Set(result.steps.filter((s) => s.step !== 'noop').flatMap((s) => refs(s.report, needs)));
  if (refsOf.size === 0) return { result, couldOnlyNoop: [] };
  const steps = result.steps.map((s) =>
    s.report ? { ...s, report: { ...s.report, resources: s.report.resources.filter((r) => !refsOf.has(r.ref) || s.step === 'noop') } } : s,
  );
  return { result: { ...result, steps }, couldOnlyNoop: [...refsOf].map((ref) => ({ ref, why: NO_SYSTEMD })) };
}

export function verdict(host: string, facts: string | undefined, found: SandboxResult, treeRoot: string, durationMs: number): HostVerdict {
  const { result, couldOnlyNoop } = withoutSystemd(relative(found, treeRoot));
  const by = (name: StepName) => result.steps.find((s) => s.step === name);
  const failures: Failure[] = result.steps.flatMap((s) => runFailures(s, by('run')?.report));
  const notRun = (['noop', 'run', 'rerun'] as const).filter((name) => by(name) === undefined);
  if (notRun.length > 0) failures.push({ kind: 'run-failed', message: `not run after that: ${notRun.map((n) => STEP_WORDS[n]).join(', ')} and the checks` });
  failures.push(...idempotence(by('rerun')?.report));
  failures.push(...fidelity(by('noop')?.report, by('run')?.report));
  for (const c of result.checks.filter((c) => !c.passed)) failures.push({ kind: 'check-failed', message: `${c.where}: check "${c.name}" failed: ${c.message}` });
  const run = by('run')?.report;
  return {
    host,
    ...(facts !== undefined ? { facts } : {}),
    passed: failures.length === 0,
    failures,
    steps: result.steps.map((s) => ({
      step: s.step,
      exit: s.exit,
      applied: s.report !== undefined && s.report.errors.length === 0,
      changed: refs(s.report, (r) => r.status === 'changed' && !held(r)),
      failed: refs(s.report, (r) => r.status === 'failed'),
    })),
    checks: result.checks,
    noopOnly: refs(run, held),
    couldOnlyNoop,
    durationMs,
  };
}

/** A host whose sandbox could not be made: no step ran. */
export function sandboxFailure(host: string, facts: string | undefined, message: string, durationMs: number): HostVerdict {
  return { host, ...(facts !== undefined ? { facts } : {}), passed: false, failures: [{ kind: 'sandbox', message }], steps: [], checks: [], noopOnly: [], couldOnlyNoop: [], durationMs };
}
