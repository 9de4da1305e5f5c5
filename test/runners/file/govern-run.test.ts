// `govern run` with the real file runner: a state tree of directories, files and a source file
// next to the state file, applied twice.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { modeOf, snapshot } from './support.js';

interface StateTree {
  states: string;
  managed: string;
  run(extra?: string[]): Promise<{ code: number | null; report: RunReport; stderr: string }>;
}

function stateTree(): StateTree {
  const dir = tempDir('govern-file-run-');
  const states = path.join(dir, 'states');
  const managed = path.join(dir, 'managed');
  writeFile(path.join(states, 'files', 'motd'), 'Welcome, from a source file next to the state file.\n');
  writeFile(path.join(states, 'files', 'app.conf'), 'port = 8080\n');
  writeFile(
    path.join(states, 'files.hcl'),
    `file "${managed}" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

file "${managed}/etc" {
  ensure = "directory"
  owner  = "root"
  group  = "0"
  mode   = "0o750"
}

file "${managed}/etc/motd" {
  ensure = "present"
  source = "files/motd"
  owner  = "root"
  group  = "root"
  mode   = "644"
}

file "${managed}/etc/app.conf" {
  ensure = "present"
  source = "${path.join(states, 'files', 'app.conf')}"
  owner  = "0"
  group  = "root"
  mode   = "0640"
}

file "${managed}/etc/secret" {
  ensure    = "present"
  contents  = "token = abc\\n"
  show_diff = false
  owner     = "root"
  group     = "root"
  mode      = "0O600"
}

file "${managed}/etc/reloaded" {
  ensure    = "present"
  contents  = "refreshed when app.conf changes\\n"
  owner     = "root"
  group     = "root"
  mode      = "0644"
  subscribe = ["file:${managed}/etc/app.conf"]
}

file "${managed}/stale" {
  ensure = "absent"
}
`,
  );
  return {
    states,
    managed,
    async run(extra = []) {
      const r = await govern(['run', states, '--json', ...extra]);
      let report: RunReport;
      try {
        report = JSON.parse(r.stdout) as RunReport;
      } catch {
        throw new Error(`govern run --json printed no report (exit ${r.code}): ${r.stdout}${r.stderr}`);
      }
      return { code: r.code, report, stderr: r.stderr };
    },
  };
}

describe('govern run with the file runner', function () {
  this.timeout(120_000);

  for (const mode of ['persistent', 'oneshot']) {
    it(`applies directories, files and a source next to the state file; the second run reports zero changes (${mode} runners)`, async () => {
      const t = stateTree();
      const first = await t.run(['--runner-mode', mode]);
      expect(first.code, JSON.stringify(first.report, null, 1)).to.equal(0);
      expect(first.report.summary).to.include({ resources: 7, changed: 6, unchanged: 1, failed: 0, skipped: 0 });
      expect(fs.readFileSync(path.join(t.managed, 'etc', 'motd'), 'utf8')).to.equal('Welcome, from a source file next to the state file.\n');
      expect(fs.readFileSync(path.join(t.managed, 'etc', 'app.conf'), 'utf8')).to.equal('port = 8080\n');
      expect(fs.readFileSync(path.join(t.managed, 'etc', 'secret'), 'utf8')).to.equal('token = abc\n');
      expect([modeOf(t.managed), modeOf(path.join(t.managed, 'etc')), modeOf(path.join(t.managed, 'etc', 'app.conf')), modeOf(path.join(t.managed, 'etc', 'secret'))]).to.deep.equal([0o755, 0o750, 0o640, 0o600]);
      const after = snapshot(t.managed);

      const second = await t.run(['--runner-mode', mode]);
      expect(second.code).to.equal(0);
      expect(second.report.summary).to.include({ resources: 7, changed: 0, unchanged: 7, failed: 0 });
      expect(second.report.resources.map((r) => r.status)).to.deep.equal(Array(7).fill('unchanged'));
      expect(second.report.notifications).to.deep.equal([]);
      expect(snapshot(t.managed)).to.deep.equal(after);
    });
  }

  it('a noop run first reports every change and creates nothing', async () => {
    const t = stateTree();
    const noop = await t.run(['--noop']);
    expect(noop.code).to.equal(0);
    expect(noop.report.noop).to.equal(true);
    expect(noop.report.summary).to.include({ changed: 6, unchanged: 1, failed: 0 });
    expect(noop.report.resources.map((r) => r.message)).to.deep.equal([
      'Would have created directory',
      'Would have created directory',
      'Would have created the file',
      'Would have created the file',
      'Would have created the file',
      'Would have created the file',
      'already absent',
    ]);
    expect(fs.existsSync(t.managed)).to.equal(false);
  });

  it('a changed source is rewritten, its subscriber refreshed; no diff of a file others cannot read (0640), and the log says why', async () => {
    const t = stateTree();
    expect((await t.run()).code).to.equal(0);
    fs.writeFileSync(path.join(t.states, 'files', 'app.conf'), 'port = 9090\n');
    const r = await t.run();
    expect(r.code).to.equal(0);
    expect(r.report.summary).to.include({ changed: 1, unchanged: 6, notifications_sent: 1 });
    const conf = r.report.resources.find((res) => res.ref === `file:${t.managed}/etc/app.conf`)!;
    expect(conf.status).to.equal('changed');
    expect(conf.diff).to.equal(undefined);
    expect(conf.log).to.include(`content changed (diff not shown: ${t.managed}/etc/app.conf is not readable by all (mode 0640), and the report is)`);
    expect(JSON.stringify(r.report)).not.to.include('port = 8080');
    expect(r.report.notifications.map((n) => [n.to, n.signal, n.status])).to.deep.equal([[`file:${t.managed}/etc/reloaded`, 'refresh', 'sent']]);
    expect(fs.readFileSync(path.join(t.managed, 'etc', 'app.conf'), 'utf8')).to.equal('port = 9090\n');
  });
});
