// The service runner inside `govern run`: a config file notifies its service, end to end through
// bin/govern, the notification phase and a real init script (sysv, so no systemd manager is up).
// The file runner here is a tiny POSIX sh runner of the test's own, which reports changed or not.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, RUNNERS_DIR, shRunner } from '../../support/cli.js';
import { processAlive } from '../../support/proc.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { SysvScript } from './support/sysv-script.js';
import { hostExclusive } from '../../support/host-lock.js';

const NAME = 'govern-test-notify';

const FILE_RUNNER = `set -eu
target=$1; shift
content=
for arg in "$@"; do case $arg in content=*) content=\${arg#content=} ;; esac; done
if [ -n "\${GOVERN_SIGNAL:-}" ]; then echo "unexpected signal: $GOVERN_SIGNAL" >&2; exit 1; fi
if [ -f "$target" ] && [ "$(cat "$target")" = "$content" ]; then echo changed=false; exit 0; fi
if [ "\${GOVERN_NOOP:-}" = 1 ]; then echo changed=true; echo "message=Would have written"; exit 0; fi
printf '%s\\n' "$content" > "$target"
echo changed=true
echo message=written`;

interface Report {
  resources: { ref: string; status: string; message: string }[];
  notifications: { from: string[]; to: string; signal: string; status: string; message: string }[];
}

for (const mode of ['persistent', 'oneshot']) describe(`service runner in govern run (${mode} runners): a config file notifies its service (sysv)`, function () {
  hostExclusive();
  this.timeout(120_000);
  let script: SysvScript;
  let runners: string;
  let tree: string;
  let conf: string;

  before(() => {
    if (fs.existsSync('/run/systemd/system')) {
      throw new Error('these tests use the sysv provider and need /run/systemd/system absent, and it is present');
    }
    script = new SysvScript(NAME);
  });

  beforeEach(async () => {
    await script.remove();
    script = new SysvScript(NAME);
    script.install();
    runners = tempDir('govern-runners-');
    shRunner(runners, 'file', FILE_RUNNER);
    tree = tempDir('govern-tree-');
    conf = path.join(tree, 'app.conf');
  });

  after(async () => {
    await script?.remove();
  });

  /** The state tree: the config file notifies the service with `notify` (signal refresh). */
  function state(content: string, extra = ''): void {
    writeFile(
      path.join(tree, 'state', 'app.hcl'),
      `file "${conf}" {
  content = "${content}"
  notify  = ["service:${NAME}"]
}
${extra}
service "${NAME}" {
  ensure   = "running"
  provider = "sysv"
}
`,
    );
  }

  async function run(...flags: string[]): Promise<Report> {
    const result = await govern(['run', '--json', '--runner-mode', mode, ...flags, '--runners-dir', runners, '--runners-dir', RUNNERS_DIR, path.join(tree, 'state')]);
    if (result.code !== 0) throw new Error(`govern run failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
    return JSON.parse(result.stdout) as Report;
  }

  async function running(): Promise<number> {
    await script.run('start');
    script.clearActions();
    return script.pid()!;
  }

  it('restarts a running service exactly once when the file changes', async () => {
    const pid = await running();
    state('port = 8080');
    const report = await run();
    expect(report.resources.map((r) => [r.ref, r.status])).to.deep.equal([
      [`file:${conf}`, 'changed'],
      [`service:${NAME}`, 'unchanged'],
    ]);
    expect(report.notifications).to.have.length(1);
    expect(report.notifications[0]).to.deep.include({ from: [`file:${conf}`], to: `service:${NAME}`, signal: 'refresh', status: 'sent', message: 'restarted' });
    expect(script.changes()).to.deep.equal(['restart']);
    const now = script.pid()!;
    expect(now).to.not.equal(pid);
    expect(processAlive(now)).to.equal(true);
    expect(processAlive(pid)).to.equal(false);
  });

  it('does not restart it when the file does not change', async () => {
    state('port = 8080');
    writeFile(conf, 'port = 8080\n');
    const pid = await running();
    const report = await run();
    expect(report.resources.map((r) => r.status)).to.deep.equal(['unchanged', 'unchanged']);
    expect(report.notifications).to.deep.equal([]);
    expect(script.changes()).to.deep.equal([]);
    expect(script.pid()).to.equal(pid);
  });

  it('starts a stopped service, and does not restart it on top', async () => {
    state('port = 8080');
    const report = await run();
    expect(report.resources.map((r) => [r.ref, r.status, r.message])).to.deep.equal([
      [`file:${conf}`, 'changed', 'written'],
      [`service:${NAME}`, 'changed', 'started'],
    ]);
    expect(report.notifications[0]).to.deep.include({ signal: 'refresh', status: 'sent', message: 'refresh not needed: started in this run' });
    expect(script.changes()).to.deep.equal(['start']);
    expect(processAlive(script.pid()!)).to.equal(true);
  });

  it('restarts once when two changed files send it refresh and restart', async () => {
    const pid = await running();
    const other = path.join(tree, 'other.conf');
    state('port = 8080', `file "${other}" {\n  content = "x"\n  notify  = ["service:${NAME}:restart"]\n}\n`);
    const report = await run();
    expect(report.notifications.map((n) => [n.signal, n.status])).to.deep.equal([
      ['refresh', 'sent'],
      ['restart', 'sent'],
    ]);
    expect(script.changes()).to.deep.equal(['restart']);
    expect(script.pid()).to.not.equal(pid);
  });

  it('in noop mode restarts nothing and reports the notification it would send', async () => {
    const pid = await running();
    state('port = 8080');
    const report = await run('--noop');
    expect(report.notifications[0]).to.deep.include({ signal: 'refresh', status: 'noop' });
    expect(fs.existsSync(conf)).to.equal(false);
    expect(script.changes()).to.deep.equal([]);
    expect(script.pid()).to.equal(pid);
  });
});
