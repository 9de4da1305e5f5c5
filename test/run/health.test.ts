// A tree's health blocks (docs/rollout.md): run after every real run, a failing one fails the run
// with its file:line, in the report, govern status and the metrics; skipped by --no-health and noop.
import { expect } from 'chai';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { json, tree } from '../support/state-tree.js';
import { tempDir } from '../support/tmp.js';

describe('health checks after a run', () => {
  it('a failing check fails the run, with its file:line, in the report, status and metrics; a passing one counts', async () => {
    const marker = path.join(tempDir(), 'marker');
    fs.writeFileSync(marker, 'nginx is up\n');
    const t = tree({
      'a.hcl': 'pkg "a" {}\n',
      'health.hcl': [
        'health "marker says up" {',
        `  file     = "${marker}"`,
        '  contains = "is up"',
        '}',
        '',
        'health "app answers" {',
        '  command = "echo not yet >&2; exit 3"',
        '}',
        '',
      ].join('\n'),
    });
    const varDir = path.join(t.dir, 'var');
    const metrics = path.join(t.dir, 'govern.prom');
    const text = await t.run(['--var-dir', varDir, '--metrics-file', metrics]);
    expect(text.code, text.stderr).to.equal(1);
    expect(text.stdout).to.match(/^failed {4}health "app answers" \(.*health\.hcl:6\) {2}the command failed \(exit 3\): not yet/m);
    expect(text.stdout).to.include('health 1 passed, 1 failed');
    expect(text.stdout).to.not.include('marker says up');
    const r = await t.run(['--var-dir', varDir, '--json']);
    expect(r.code).to.equal(1);
    const report = json(r.stdout);
    expect(report.summary.failed).to.equal(0);
    expect(report.health).to.deep.equal({ passed: 1, failed: 1, failures: [`${t.states}/health.hcl:6: health check "app answers" failed: the command failed (exit 3): not yet`] });
    const status = await govern(['status', '--var-dir', varDir]);
    expect(status.code).to.equal(2);
    expect(status.stdout).to.match(/^GOVERN CRITICAL - 1 health check failed \(.*health\.hcl:6: health check "app answers" failed: /);
    expect(status.stdout).to.include('health_failed=1;;0;0');
    const prom = fs.readFileSync(metrics, 'utf8');
    expect(prom).to.include('govern_last_run_success 0');
    expect(prom).to.include('govern_last_run_health_checks{result="passed"} 1');
    expect(prom).to.include('govern_last_run_health_checks{result="failed"} 1');
  });

  it('--no-health skips them, noop never runs them, and a tree without health blocks reports none', async () => {
    const dir = tempDir();
    const ran = path.join(dir, 'ran');
    const t = tree({ 'a.hcl': `pkg "a" {}\n\nhealth "touches" {\n  command = "touch ${ran}; exit 1"\n}\n` });
    const varDir = path.join(t.dir, 'var');
    const skipped = await t.run(['--var-dir', varDir, '--json', '--no-health']);
    expect(skipped.code, skipped.stderr).to.equal(0);
    expect(json(skipped.stdout)).to.not.have.property('health');
    const noop = await t.run(['--var-dir', varDir, '--json', '--noop']);
    expect(noop.code, noop.stderr).to.equal(0);
    expect(json(noop.stdout)).to.not.have.property('health');
    expect(fs.existsSync(ran)).to.equal(false);
    const plain = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const none = await plain.run(['--var-dir', path.join(plain.dir, 'var'), '--json']);
    expect(none.code).to.equal(0);
    expect(json(none.stdout)).to.not.have.property('health');
    expect((await govern(['status', '--var-dir', path.join(plain.dir, 'var')])).stdout).to.match(/^GOVERN OK - /);
  });

  it('retries a failing check, each attempt within its timeout, and a port that listens passes', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const counter = path.join(tempDir(), 'count');
      // Fails at the first attempt, passes at the second: what a service still starting does.
      const t = tree({
        'a.hcl': [
          `health "second time" {\n  command = "test -e ${counter} || { touch ${counter}; exit 1; }"\n  retries = 1\n}\n`,
          `health "listens" {\n  port = ${port}\n}\n`,
          `health "hangs" {\n  command = "exec sleep 600"\n  timeout = "300ms"\n}\n`,
        ].join('\n'),
      });
      const r = await t.run(['--var-dir', path.join(t.dir, 'var'), '--json']);
      expect(r.code).to.equal(1);
      const report = json(r.stdout);
      expect(report.health?.passed).to.equal(2);
      expect(report.health?.failures).to.have.length(1);
      expect(report.health?.failures[0]).to.match(/a\.hcl:10: health check "hangs" failed: the command failed \(timed out after 300ms/);
    } finally {
      server.close();
    }
  });

  it('a bad health block: every problem with its file:line, and nothing applied', async () => {
    const t = tree({
      'a.hcl': 'pkg "a" {}\n',
      'h.hcl': [
        'health "two kinds" {\n  port = 80\n  url  = "http://127.0.0.1/"\n}\n',
        'health "bad tuning" {\n  command = "true"\n  timeout = "soon"\n  retries = -1\n}\n',
        'health "twice" {\n  command = "true"\n}\n',
        'health "twice" {\n  command = "false"\n}\n',
        'health "typo" {\n  file    = "/etc/hostname"\n  contain = "x"\n}\n',
      ].join('\n'),
    });
    const r = await t.run(['--var-dir', path.join(t.dir, 'var')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('h.hcl:1: health "two kinds": has port and url: give one of');
    expect(r.stderr).to.include('h.hcl:8: health "bad tuning": timeout is a duration from 1ms to 1h, such as "10s", not "soon"');
    expect(r.stderr).to.include('h.hcl:9: health "bad tuning": retries is a whole number from 0 to 100, not -1');
    expect(r.stderr).to.match(/h\.hcl:16: health "twice" is already declared at .*h\.hcl:12/);
    // A misspelt key at its own line, as the key is written.
    expect(r.stderr).to.include('h.hcl:22: health "typo": file takes file, contains, mode, not contain (did you mean "contains"?)');
    expect(r.stderr).to.not.include('    at ');
    expect(t.calls()).to.deep.equal([]);
  });
});
