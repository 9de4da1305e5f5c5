// `govern status`: every monitoring-plugins exit code, from records real runs wrote, and the line's
// shape: `GOVERN STATE - text | perfdata`.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PullRecord } from '../../src/record/last-pull.js';
import { lastRunStatus } from '../../src/record/status.js';
import type { RunReport } from '../../src/report/types.js';
import { govern } from '../support/cli.js';
import { tree } from '../support/state-tree.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** label=value[unit];warn;crit;min;max, space-separated, after " | ". */
const PERFDATA = /^[^|]* \| ([a-z_]+=[\d.]+(s)?(;[\d.]*){0,4})( [a-z_]+=[\d.]+(s)?(;[\d.]*){0,4})*$/;

describe('govern status', () => {
  const status = (varDir: string, extra: string[] = []) => govern(['status', '--var-dir', varDir, ...extra]);

  it('3 UNKNOWN when no run is recorded', async () => {
    const varDir = tempDir();
    const r = await status(varDir);
    expect(r.code).to.equal(3);
    expect(r.stdout).to.equal(`GOVERN UNKNOWN - no run recorded in ${varDir}/last-run.json\n`);
  });

  it('3 UNKNOWN for a record it cannot read, and for options it cannot read', async () => {
    const varDir = tempDir();
    writeFile(path.join(varDir, 'last-run.json'), '{"half":');
    const r = await status(varDir);
    expect(r.code).to.equal(3);
    expect(r.stdout).to.match(/^GOVERN UNKNOWN - cannot read .*last-run.json: /);
    const bad = await status(varDir, ['--max-age', 'soon']);
    expect(bad.code).to.equal(3);
    expect(bad.stderr).to.include('--max-age');
  });

  it('3 UNKNOWN, in one line, for a record that is JSON but not a run report govern can use', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const varDir = path.join(t.dir, 'var');
    expect((await t.run(['--var-dir', varDir])).code).to.equal(0);
    const good = JSON.parse(fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8')) as Record<string, unknown>;
    const { changed: _c, failed: _f, resources: _r, ...lessSummary } = good.summary as Record<string, number>;
    for (const [record, why] of [
      [{ ...good, started_at: 'not a time' }, 'started_at must match pattern'],
      [{ ...good, started_at: '2026-13-45T99:99:99Z' }, 'started_at "2026-13-45T99:99:99Z" is not a time'],
      [{ ...good, errors: [null] }, 'errors.0 must be object'],
      [{ ...good, summary: lessSummary }, 'summary must have required property'],
    ] as const) {
      writeFile(path.join(varDir, 'last-run.json'), JSON.stringify(record));
      const r = await status(varDir);
      expect(r.code, r.stdout + r.stderr).to.equal(3);
      expect(r.stderr).to.equal('');
      expect(r.stdout).to.match(new RegExp(`^GOVERN UNKNOWN - cannot read ${varDir}/last-run.json: not a govern run report: [^\\n]*\\n$`));
      expect(r.stdout).to.include(why);
    }
  });

  it('0 OK after a good run: when, how long, changed and failed counts, the state tree, and perfdata', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\npkg "b" {}\n' });
    const varDir = path.join(t.dir, 'var');
    expect((await t.run(['--var-dir', varDir])).code).to.equal(0);
    const r = await status(varDir);
    expect(r.code, r.stdout).to.equal(0);
    const line = r.stdout.trimEnd();
    expect(line).to.match(/^GOVERN OK - last run \S+ ago \(\d{4}-\d\d-\d\dT[\d:.]+Z\), took \d+\.\d\ds: 1 changed, 0 failed, 0 skipped of 2; /);
    expect(line).to.include(`of 2; ${t.states} | `);
    expect(line).to.match(PERFDATA);
    expect(line).to.match(/ \| age=\d+s;3600;;0 /);
    expect(line).to.include(' changed=1;;;0 failed=0;;0;0 ');
  });

  it('names the tree by the absolute path the run applied, when the run was given a relative one', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const varDir = path.join(t.dir, 'var');
    const ran = await govern(['run', path.basename(t.states), '--runners-dir', t.runners, '--facts-dir', t.facts, '--var-dir', varDir], { cwd: path.dirname(t.states) });
    expect(ran.code, ran.stderr).to.equal(0);
    const r = await govern(['status', '--var-dir', varDir], { cwd: '/' });
    expect(r.code, r.stdout).to.equal(0);
    expect(r.stdout).to.include(`of 1; ${t.states} | `);
    expect(path.isAbsolute(t.states)).to.equal(true);
  });

  it('1 WARNING when the last run is older than --max-age (GOVERN_MAX_AGE)', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const varDir = path.join(t.dir, 'var');
    expect((await t.run(['--var-dir', varDir])).code).to.equal(0);
    await sleep(1100);
    const r = await status(varDir, ['--max-age', '1s']);
    expect(r.code, r.stdout).to.equal(1);
    expect(r.stdout).to.match(/^GOVERN WARNING - the last run is older than 1s; last run/);
    const fromEnv = await govern(['status', '--var-dir', varDir], { env: { GOVERN_MAX_AGE: '1s' } });
    expect(fromEnv.code).to.equal(1);
    expect((await status(varDir)).code, 'within the default hour').to.equal(0);
  });

  it('2 CRITICAL when the last run had failures, even when it is also old', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  fail = true\n}\npkg "b" {\n  after = ["pkg:a"]\n}\n' });
    const varDir = path.join(t.dir, 'var');
    expect((await t.run(['--var-dir', varDir])).code).to.equal(1);
    const r = await status(varDir);
    expect(r.code, r.stdout).to.equal(2);
    expect(r.stdout).to.match(/^GOVERN CRITICAL - 1 resource failed; last run .*: 0 changed, 1 failed, 1 skipped of 2; /);
    expect(r.stdout.trimEnd()).to.match(PERFDATA);
    await sleep(1100);
    expect((await status(varDir, ['--max-age', '1s'])).code).to.equal(2);
  });

  it('2 CRITICAL when the last run stopped before applying anything', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  before = ["pkg:nope"]\n}\n' });
    const varDir = path.join(t.dir, 'var');
    expect((await t.run(['--var-dir', varDir])).code).to.equal(1);
    const r = await status(varDir);
    expect(r.code, r.stdout).to.equal(2);
    // Where the problem is, as the run said it.
    expect(r.stdout, r.stdout).to.match(new RegExp(`^GOVERN CRITICAL - stopped before applying: ${path.join(t.states, 'a.hcl').replace(/[.]/g, '\\.')}:2: .*pkg:nope`));
  });

  it('a noop run after a failed one leaves the status CRITICAL', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  fail = true\n}\n' });
    const varDir = path.join(t.dir, 'var');
    await t.run(['--var-dir', varDir]);
    fs.writeFileSync(path.join(t.states, 'a.hcl'), 'pkg "a" {}\n');
    expect((await t.run(['--var-dir', varDir, '--noop'])).code).to.equal(0);
    expect((await status(varDir)).code).to.equal(2);
  });
});

describe('lastRunStatus', () => {
  const report = (over: Partial<RunReport['summary']> = {}, extra: Partial<RunReport> = {}): RunReport => ({
    host: 'h',
    govern_version: '0',
    started_at: '2026-01-01T00:00:00.000Z',
    state: '/etc/govern/states',
    noop: false,
    errors: [],
    resources: [],
    notifications: [],
    summary: {
      resources: 3, changed: 1, unchanged: 2, failed: 0, skipped: 0, excluded: 0,
      notifications_sent: 0, notifications_noop: 0, notifications_failed: 0, notifications_skipped: 0, duration_ms: 2500,
      ...over,
    },
    timings: { facts_ms: 0, render_ms: 0, parse_ms: 0, plan_ms: 0, apply_ms: 0, notify_ms: 0 },
    ...extra,
  });
  const ended = Date.parse('2026-01-01T00:00:02.500Z');
  const check = (r: RunReport, ageMs: number, maxAgeMs = 3_600_000) => lastRunStatus({ kind: 'report', file: 'f', report: r }, ended + ageMs, maxAgeMs);

  it('ages from the end of the run, and warns only past the maximum age', () => {
    expect(check(report(), 3_600_000).code).to.equal(0);
    expect(check(report(), 3_600_001).code).to.equal(1);
    expect(check(report(), 720_000).line).to.match(/^GOVERN OK - last run 12m ago \(2026-01-01T00:00:02.500Z\), took 2.50s/);
  });

  it('is critical for failed notifications, and names the commit of a pulled tree', () => {
    const r = check(report({ notifications_failed: 1 }, { commit: '0123456789abcdef0123456789abcdef01234567' }), 0);
    expect(r.code).to.equal(2);
    expect(r.line).to.match(/^GOVERN CRITICAL - 1 notification failed; .*; \/etc\/govern\/states at 0123456789ab \| /);
  });

  it("adds the last pull: WARNING when it failed or was refused, CRITICAL for a refused rollback, nothing when it went through", () => {
    const pulled = (outcome: PullRecord['outcome'], message?: string) =>
      lastRunStatus({ kind: 'report', file: 'f', report: report() }, ended + 60_000, 3_600_000, {
        kind: 'record',
        file: 'p',
        record: { at: '2026-01-01T00:00:32.500Z', outcome, repo: 'r', dir: '/etc/govern/states', commit: 'c0ffee', message },
      });
    expect(pulled('pulled').code).to.equal(0);
    expect(pulled('rolled-back').code).to.equal(0);
    expect(pulled('failed', 'cannot fetch').line).to.match(/^GOVERN WARNING - the last pull, 30s ago, failed: cannot fetch; last run 1m ago/);
    expect(pulled('refused', 'refusing commit c0ffee').code).to.equal(1);
    expect(pulled('rollback', 'refusing commit c0ffee').line).to.match(/^GOVERN CRITICAL - the last pull, 30s ago, was a rollback attempt, refused: refusing commit c0ffee; /);
    const failedRun = lastRunStatus({ kind: 'report', file: 'f', report: report({ failed: 1 }) }, ended, 3_600_000, { kind: 'unreadable', file: 'p', reason: 'bad' });
    expect(failedRun.code).to.equal(2);
    expect(failedRun.line).to.match(/^GOVERN CRITICAL - cannot read p: bad; 1 resource failed; /);
  });

  it('a pull held by a staged rollout: OK with a note until it has been held longer than the bound, then WARNING; its perfdata', () => {
    const held = (sinceAgoMs: number, maxHeldMs?: number) =>
      lastRunStatus({ kind: 'report', file: 'f', report: report() }, ended + 60_000, 3_600_000, {
        kind: 'record',
        file: 'p',
        record: { at: '2026-01-01T00:00:32.500Z', outcome: 'held', repo: 'r', dir: '/etc/govern/states', current: 'a'.repeat(40), commit: 'b'.repeat(40), message: 'stage 2 (role=web): waiting for canary1', held_since: new Date(ended + 60_000 - sinceAgoMs).toISOString() },
      }, maxHeldMs);
    const ok = held(600_000);
    expect(ok.code).to.equal(0);
    expect(ok.line).to.match(/^GOVERN OK - the last pull, 30s ago, held commit b{12} \(held for 10m\): stage 2 \(role=web\): waiting for canary1; last run 1m ago/);
    expect(ok.line).to.match(/ pull_held=600s;21600;;0$/);
    expect(ok.line).to.match(PERFDATA);
    expect(held(6 * 3_600_000).code).to.equal(0);
    const late = held(6 * 3_600_000 + 1000);
    expect(late.code).to.equal(1);
    expect(late.line).to.match(/^GOVERN WARNING - the last pull, 30s ago, held commit b{12} \(held for 6h1s, longer than 6h\): /);
    expect(held(120_000, 60_000).code).to.equal(1);
    // A failed run beside a held pull stays CRITICAL; a pull that went through has no hold.
    const failed = lastRunStatus({ kind: 'report', file: 'f', report: report({ failed: 1 }) }, ended, 3_600_000, { kind: 'record', file: 'p', record: { at: '2026-01-01T00:00:00.000Z', outcome: 'held', repo: 'r', dir: 'd', commit: 'c', held_since: '2026-01-01T00:00:00.000Z' } });
    expect(failed.code).to.equal(2);
    expect(check(report(), 0).line).to.match(/ pull_held=0s;21600;;0$/);
  });

  it("a held pull's bound comes from the held commit's rollout.hcl when it waits longer than 6h; --max-held still decides", () => {
    const held = (sinceAgoMs: number, expectedS: number, maxHeldMs?: number) =>
      lastRunStatus({ kind: 'report', file: 'f', report: report() }, ended + 60_000, 3_600_000, {
        kind: 'record',
        file: 'p',
        record: { at: '2026-01-01T00:00:32.500Z', outcome: 'held', repo: 'r', dir: 'd', commit: 'b'.repeat(40), message: 'stage 3', held_since: new Date(ended + 60_000 - sinceAgoMs).toISOString(), expected_hold_seconds: expectedS },
      }, maxHeldMs);
    // Stages that wait 24h and 2 pull periods: 26h, and an hour more.
    const expected = 26 * 3600;
    expect(held(20 * 3_600_000, expected).code).to.equal(0);
    expect(held(20 * 3_600_000, expected).line).to.match(/ pull_held=72000s;97200;;0$/);
    const late = held(27 * 3_600_000 + 1000, expected);
    expect(late.code).to.equal(1);
    expect(late.line).to.include('(held for 27h1s, longer than 27h)');
    // A short wait keeps the 6h floor; the option overrides either way.
    expect(held(0, 600).line).to.match(/ pull_held=0s;21600;;0$/);
    expect(held(2 * 3_600_000, expected, 3_600_000).code).to.equal(1);
  });

  it('keeps a | in a message out of the performance data', () => {
    const r = check(report({}, { errors: [{ message: 'a | b' }] }), 0);
    expect(r.line.split(' | ')).to.have.length(2);
    expect(r.line).to.include('stopped before applying: a / b');
  });
});
