// End to end through `govern run`: a file-like resource notifies the real exec runner. The notifier
// is a small sh runner of the test's own (it creates its file and reports changed=true, or
// changed=false when the file is already there), so these tests depend on no other runner.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern, RUNNERS_DIR, shRunner } from '../../support/cli.js';
import { processAlive } from '../../support/proc.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const TOUCHFILE = `set -eu
[ -z "\${GOVERN_SIGNAL:-}" ] || exit 0
if [ -e "$1" ]; then echo changed=false; echo "message=exists"; exit 0; fi
echo changed=true
if [ -n "\${GOVERN_NOOP:-}" ]; then echo "message=Would have created"; exit 0; fi
: > "$1"
echo "message=created"`;

function setup(state: (dir: string, counter: string) => string) {
  const dir = tempDir();
  const runners = path.join(dir, 'runners');
  shRunner(runners, 'touchfile', TOUCHFILE);
  const counter = path.join(dir, 'exec-runs');
  const states = path.join(dir, 'states');
  writeFile(path.join(states, 'main.hcl'), state(dir, counter));
  const run = async (...extra: string[]) => {
    const r = await govern(['run', states, '--json', '--runners-dir', runners, '--runners-dir', RUNNERS_DIR, ...extra]);
    return { ...r, report: JSON.parse(r.stdout) as RunReport };
  };
  const runs = () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').split('\n').filter((l) => l !== '').length : 0);
  return { dir, run, runs };
}

const notified = (dir: string, counter: string) => `touchfile "${dir}/app.conf" {
  notify = ["exec:record a run"]
}

exec "record a run" {
  provider     = "shell"
  command      = "echo run >> ${counter}"
  refresh_only = true
}
`;

describe('govern run with the exec runner', () => {
  for (const mode of ['persistent', 'oneshot']) {
    it(`--runner-timeout takes down the command the runner started (${mode} runners)`, async () => {
      const pidFile = path.join(tempDir(), 'pid');
      const t = setup(() => `exec "long" {
  provider = "shell"
  command  = "echo $$ > ${pidFile}; exec sleep 300"
  timeout  = "0"
}
`);
      const r = await t.run('--runner-mode', mode, '--runner-timeout', '1s');
      expect(r.report.resources[0].status).to.equal('failed');
      expect(r.report.resources[0].message).to.match(/timed out after 1s/);
      await new Promise((res) => setTimeout(res, 200));
      expect(processAlive(Number(fs.readFileSync(pidFile, 'utf8'))), 'the command outlived its runner').to.equal(false);
    });
  }

  for (const mode of ['persistent', 'oneshot']) {
    it(`a changed file-like resource notifies the exec, which runs exactly once (${mode} runners)`, async () => {
      const t = setup(notified);
      const r = await t.run('--runner-mode', mode);
      expect(r.code, r.stderr).to.equal(0);
      expect(t.runs()).to.equal(1);
      const exec = r.report.resources.find((res) => res.ref === 'exec:record a run');
      expect(exec).to.include({ status: 'unchanged', message: 'not run: refresh_only and not notified' });
      expect(r.report.notifications).to.have.length(1);
      expect(r.report.notifications[0]).to.include({ to: 'exec:record a run', signal: 'refresh', status: 'sent', message: 'executed (exit 0)' });
    });
  }

  it('the built-in exec declares the persistent protocol: one runner process serves every exec', async () => {
    const t = setup((_dir, counter) => ['one', 'two', 'three'].map((n) => `exec "${n}" {
  provider = "shell"
  command  = "echo $PPID >> ${counter}"
}
`).join('\n'));
    const parents = async (mode: string) => {
      fs.rmSync(path.join(t.dir, 'exec-runs'), { force: true });
      const r = await t.run('--runner-mode', mode, '--jobs', '1');
      expect(r.code, r.stderr).to.equal(0);
      return new Set(fs.readFileSync(path.join(t.dir, 'exec-runs'), 'utf8').trim().split('\n')).size;
    };
    expect(await parents('persistent')).to.equal(1);
    expect(await parents('oneshot')).to.equal(3);
  });

  it('does not run the exec when the notifier did not change', async () => {
    const t = setup(notified);
    expect((await t.run()).code).to.equal(0);
    expect(t.runs()).to.equal(1);
    const second = await t.run();
    expect(second.code, second.stderr).to.equal(0);
    expect(t.runs()).to.equal(1);
    expect(second.report.notifications).to.deep.equal([]);
    expect(second.report.summary.changed).to.equal(0);
  });

  it('runs the exec once when two changed resources signal it, by notify and by subscribe', async () => {
    const t = setup((dir, counter) => `touchfile "${dir}/a.conf" {
  notify = ["exec:record a run"]
}

touchfile "${dir}/b.conf" {}

exec "record a run" {
  command      = "sh -c 'echo run >> ${counter}'"
  refresh_only = true
  subscribe    = ["touchfile:${dir}/b.conf"]
}
`);
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(t.runs()).to.equal(1);
    expect(r.report.notifications).to.have.length(1);
    expect(r.report.notifications[0].from).to.have.members([`touchfile:${t.dir}/a.conf`, `touchfile:${t.dir}/b.conf`]);
  });

  it('runs a notified exec regardless of creates, and skips it by creates otherwise', async () => {
    const t = setup((dir, counter) => `touchfile "${dir}/app.conf" {
  notify = ["exec:record a run"]
}

exec "record a run" {
  command = "sh -c 'echo run >> ${counter}'"
  creates = "${counter}"
}
`);
    // First run: applied (creates missing), then notified (creates now exists): two runs.
    expect((await t.run()).code).to.equal(0);
    expect(t.runs()).to.equal(2);
    // Second run: creates exists and nothing notifies.
    const second = await t.run();
    expect(second.report.resources.find((res) => res.ref === 'exec:record a run')).to.include({ status: 'unchanged', message: `not run: ${t.dir}/exec-runs exists` });
    expect(t.runs()).to.equal(2);
  });

  it('noop: the exec is not run, and govern reports the notification it would send', async () => {
    const t = setup(notified);
    const r = await t.run('--noop');
    expect(r.code, r.stderr).to.equal(0);
    expect(t.runs()).to.equal(0);
    expect(r.report.notifications[0]).to.include({ to: 'exec:record a run', status: 'noop' });
  });

  it('a failing exec fails the run with its exit code and output in the report', async () => {
    const t = setup(() => `exec "failing" {
  provider = "shell"
  command  = "echo something went wrong >&2; exit 3"
}
`);
    const r = await t.run();
    expect(r.code).to.equal(1);
    const [exec] = r.report.resources;
    expect(exec.status).to.equal('failed');
    // The exit code once, and govern adds nothing to the runner's own message (the runner exits 1).
    expect(exec.message).to.equal('"echo something went wrong >&2; exit 3" failed (exit 3, expected 0): something went wrong');
    expect(exec.log).to.include('stderr: something went wrong');
  });
});
