// What `govern run` prints: Puppet's habit by default (changes, failures, skips, notifications, the
// summary), more with -v and -vv, less with -q; colours on a terminal only; the whole run's time.
import { expect } from 'chai';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN, shRunner } from '../support/cli.js';
import { json, tree, type Tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

const ESC = '\x1b[';

/** One of each: changed, unchanged, failed, skipped, and a notification. */
function mixedTree(): Tree {
  return tree({
    'a.hcl': `pkg "changes" {
  changed = true
  notify = ["service:web:restart"]
}
pkg "same" {}
pkg "broken" {
  fail = true
}
exec "after-broken" {
  after = ["pkg:broken"]
}
service "web" {}
`,
  });
}

/** The lines of a run's output that describe resources, without their durations. */
const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => l.replace(/  \(\d+\.\d\ds\)$/, ''));

describe('govern run output', () => {
  it('prints changes, failures, skips and notifications by default, and counts unchanged resources in the summary', async () => {
    const t = mixedTree();
    const r = await t.run(['--jobs', '1']);
    expect(r.code).to.equal(1);
    expect(lines(r.stdout).slice(0, -1)).to.deep.equal([
      'changed   pkg:changes  handled changes',
      `failed    pkg:broken (${path.join(t.states, 'a.hcl')}:6)  failing on purpose`, // where it is declared; the message once
      'skipped   exec:after-broken  skipped: depends on pkg:broken, which failed',
      'notified  service:web <- restart from pkg:changes  handled web',
    ]);
    expect(r.stdout).to.match(/\n5 resources, 1 changed, 2 unchanged, 1 failed, 1 skipped; 1 notification sent; \d+\.\d\ds\n$/);
  });

  it('-v lists unchanged resources and every log; -vv also each invocation; -q only failures and the summary', async () => {
    const t = mixedTree();
    const verbose = lines((await t.run(['--jobs', '1', '-v'])).stdout);
    expect(verbose).to.include('unchanged pkg:same  handled same');
    expect(verbose.filter((l) => l.includes('service:web')), 'a notified resource is told on its notification line').to.deep.equal([
      'notified  service:web <- restart from pkg:changes  handled web',
    ]);
    expect(verbose.some((l) => l.startsWith('running '))).to.equal(false);

    const vv = lines((await t.run(['--jobs', '1', '-vv'])).stdout);
    expect(vv.filter((l) => l.startsWith('running '))).to.have.length(5); // 4 applied (one skipped) and the notification
    expect(vv).to.include(`running   GOVERN_STATE_DIR=${t.states} ${t.runners}/pkg same`);
    expect(vv.indexOf(`running   GOVERN_STATE_DIR=${t.states} ${t.runners}/pkg same`)).to.equal(vv.indexOf('unchanged pkg:same  handled same') - 1);

    const quiet = await t.run(['--jobs', '1', '-q']);
    expect(lines(quiet.stdout).slice(0, -1)).to.deep.equal([`failed    pkg:broken (${path.join(t.states, 'a.hcl')}:6)  failing on purpose`]);
    expect(quiet.stdout).to.match(/\n5 resources, 1 changed/);

    const both = await t.run(['-q', '-v']);
    expect(both.code).to.equal(1);
    expect(both.stderr).to.contain('-q and -v say opposite things');
  });

  it('tells the refresh of a command that runs only when notified once, on its notification line', async () => {
    const t = tree({
      'a.hcl': 'file "/etc/app.conf" {\n  changed = true\n}\nrefresher "reload app" {\n  subscribe = ["file:/etc/app.conf"]\n}\nrefresher "idle" {}\n',
    });
    shRunner(
      t.runners,
      'refresher',
      '[ -n "${GOVERN_SIGNAL:-}" ] && { echo changed=true; echo "message=executed (exit 0)"; exit 0; }\necho "message=not run: refresh_only and not notified"',
    );
    for (const extra of [[], ['-v']]) {
      const out = lines((await t.run(['--jobs', '1', ...extra])).stdout);
      expect(out.filter((l) => l.includes('refresher:reload app'))).to.deep.equal(['notified  refresher:reload app <- refresh from file:/etc/app.conf  executed (exit 0)']);
    }
    // One that is not notified is listed as usual with -v.
    expect(lines((await t.run(['-v'])).stdout)).to.include('unchanged refresher:idle  not run: refresh_only and not notified');
    // The report keeps both: the apply phase and the notification.
    const report = json((await t.run(['--json'])).stdout);
    expect(report.resources.find((r) => r.ref === 'refresher:reload app')?.status).to.equal('unchanged');
    expect(report.notifications[0]).to.deep.include({ to: 'refresher:reload app', status: 'sent' });
  });

  it('times the whole run, planning included, and each phase in --json', async () => {
    const t = tree({ 'a.hcl': 'pkg "{{fact "slow"}}" {}\n' });
    writeFile(path.join(t.facts, 'slow'), '#!/bin/sh\nsleep 0.6\necho x\n', 0o755);
    const text = await t.run();
    const seconds = Number(/; (\d+\.\d\d)s\n$/.exec(text.stdout)![1]);
    expect(seconds).to.be.at.least(0.6, 'the summary counts the time facts took');
    const report = json((await t.run(['--json'])).stdout);
    expect(report.timings.facts_ms).to.be.at.least(600);
    expect(report.timings.render_ms).to.be.below(report.timings.facts_ms, 'fact time is not counted as rendering');
    const phases = Object.values(report.timings).reduce((a, b) => a + b, 0);
    expect(report.summary.duration_ms).to.be.at.least(phases);
  });

  describe('colours', () => {
    const codes = (text: string) => text.includes(ESC);

    it('--color always colours each status its own way; never, a pipe and --json have none', async () => {
      const t = mixedTree();
      const always = await t.run(['--jobs', '1', '--color', 'always']);
      expect(always.stdout).to.contain(`${ESC}33mchanged  ${ESC}0m pkg:changes`);
      expect(always.stdout).to.contain(`${ESC}1;31mfailed   ${ESC}0m pkg:broken`);
      expect(always.stdout).to.contain(`${ESC}36mskipped  ${ESC}0m exec:after-broken`);
      expect(always.stdout).to.contain(`${ESC}34mnotified ${ESC}0m service:web`);
      expect((await t.run(['--noop', '--color', 'always'])).stdout).to.contain(`${ESC}35mnoop     ${ESC}0m pkg:changes`);
      expect(codes((await t.run()).stdout), 'a pipe').to.equal(false);
      expect(codes((await t.run(['--color', 'never'])).stdout)).to.equal(false);
      expect(codes((await t.run(['--json', '--color', 'always'])).stdout)).to.equal(false);
      expect(codes((await t.run([], { GOVERN_COLOR: 'always' })).stdout), 'GOVERN_COLOR').to.equal(true);
    });

    it('colours a terminal by itself (--color auto), unless NO_COLOR is set or --color never', async () => {
      const t = mixedTree();
      const onTerminal = (extra: string, env = '') =>
        runCommand('script', ['-qec', `${env} ${GOVERN} run --jobs 1 --runners-dir ${t.runners} --facts-dir ${t.facts} ${extra} ${t.states}`, '/dev/null'], {
          env: { ...process.env, TERM: 'xterm' },
        });
      const auto = await onTerminal('');
      expect(auto.stdout).to.contain(`${ESC}33mchanged`);
      expect(codes((await onTerminal('', 'NO_COLOR=1')).stdout)).to.equal(false);
      expect(codes((await onTerminal('--color never')).stdout)).to.equal(false);
      expect((await onTerminal('--color always', 'NO_COLOR=1')).stdout, 'a flag wins over NO_COLOR').to.contain(`${ESC}33mchanged`);
    });
  });
});

// These need the runner protocol's diff result (`diff=LINE` lines, the persistent answer's "diff",
// and the file runner putting its content diff there).
describe('govern run diffs', () => {
  /** A runner that changes something and says how, as a unified diff. */
  function diffTree(): Tree {
    const t = tree({ 'a.hcl': 'differ "/etc/app.conf" {}\n' });
    shRunner(
      t.runners,
      'differ',
      ['echo changed=true', 'echo "message=changed content"', 'printf "diff=%s\\n" "--- $1\tcurrent" "+++ $1\tdesired" "@@ -1 +1 @@" "-port = 8080" "+port = 8081"', 'echo "a log line"'].join('\n'),
    );
    return t;
  }
  const expected = ['--- /etc/app.conf\tcurrent', '+++ /etc/app.conf\tdesired', '@@ -1 +1 @@', '-port = 8080', '+port = 8081'];

  it('shows a diff under the changed line by default, and under the noop line; --no-diff hides it', async () => {
    const t = diffTree();
    for (const [extra, status] of [[[], 'changed  '], [['--noop'], 'noop     ']] as const) {
      const out = lines((await t.run([...extra])).stdout);
      expect(out.slice(0, 6)).to.deep.equal([`${status} differ:/etc/app.conf  changed content`, ...expected.map((l) => `          ${l}`)]);
      expect(out.join('\n')).to.not.contain('a log line', 'logs wait for -v');
    }
    expect(lines((await t.run(['--no-diff'])).stdout).slice(0, -1)).to.deep.equal(['changed   differ:/etc/app.conf  changed content']);
    expect(json((await t.run(['--json'])).stdout).resources[0]).to.deep.include({ diff: expected.join('\n'), log: ['a log line'] });
  });

  it('colours a diff as git does', async () => {
    const out = (await diffTree().run(['--color', 'always'])).stdout;
    expect(out).to.contain(`${ESC}1m--- /etc/app.conf\tcurrent${ESC}0m`);
    expect(out).to.contain(`${ESC}36m@@ -1 +1 @@${ESC}0m`);
    expect(out).to.contain(`${ESC}31m-port = 8080${ESC}0m`);
    expect(out).to.contain(`${ESC}32m+port = 8081${ESC}0m`);
  });

  it("shows the file runner's content diff in noop by default, never for show_diff = false", async () => {
    const t = tree({});
    const managed = path.join(t.dir, 'app.conf');
    const secret = path.join(t.dir, 'secret');
    writeFile(managed, 'port = 8080\n');
    writeFile(secret, 'token = old\n');
    const attrs = 'ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"';
    writeFile(
      path.join(t.states, 'a.hcl'),
      `file "${managed}" {\n  contents = "port = 8081\\n"\n  ${attrs}\n}\nfile "${secret}" {\n  contents = "token = new\\n"\n  show_diff = false\n  ${attrs}\n}\n`,
    );
    const r = await runCommand(GOVERN, ['run', '--noop', t.states]);
    expect(r.stdout).to.contain('          -port = 8080\n          +port = 8081\n');
    expect(r.stdout).to.not.contain('token =');
  });
});
