import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { defaultSearchPaths } from '../../src/config/paths.js';
import { govern, GOVERN, shRunner } from '../support/cli.js';
import { processAlive } from '../support/proc.js';
import { runCommand } from '../../src/shared/process.js';
import { readCalls } from '../support/recording-runner.js';
import { json, tree } from '../support/state-tree.js';

describe('govern run', () => {
  describe('the runner protocol', () => {
    it('passes the seed\'s stuff example as argv, without a shell', async () => {
      const t = tree({ 'a.hcl': 'stuff "/etc/fstab old" {\n  foo = "yes, no, maybe so"\n}\n' });
      const r = await t.run();
      expect(r.code).to.equal(0);
      const [call] = readCalls(t.log);
      expect([call.name, ...call.args]).to.deep.equal(['/etc/fstab old', 'foo=yes, no, maybe so']);
    });

    it('encodes numbers, booleans, lists and maps, and keeps the ordering keys for itself', async () => {
      const t = tree({
        'a.hcl': `stuff "x" {
  n = 42
  f = 1.5
  yes = true
  no = false
  returns = [0, 2]
  env = { A = "1", B = "two words" }
  dollar = "$HOME; $(id) \`id\` && |"
  literal = "$\${not an expression}"
  before = ["pkg:y"]
}
pkg "y" {
  subscribe = ["stuff:x"]
  after = []
}
`,
      });
      const r = await t.run();
      expect(r.stderr).to.equal('');
      const calls = readCalls(t.log);
      expect(calls[0].args).to.deep.equal([
        'n=42',
        'f=1.5',
        'yes=true',
        'no=false',
        'returns=0',
        'returns=2',
        'env={"A":"1","B":"two words"}',
        'dollar=$HOME; $(id) `id` && |',
        'literal=${not an expression}',
      ]);
      expect(calls[1]).to.deep.include({ name: 'y', args: [] });
    });

    it('sets GOVERN, GOVERN_FACTS_PATH and GOVERN_STATE_DIR, and clears GOVERN_NOOP and GOVERN_SIGNAL', async () => {
      const t = tree({ 'sub/a.hcl': 'envdump "x" {}\n' });
      const out = path.join(t.dir, 'env.txt');
      shRunner(t.runners, 'envdump', `env | grep ^GOVERN | sort > ${out}`);
      const r = await t.run([], { GOVERN_NOOP: '1', GOVERN_SIGNAL: 'restart' });
      expect(r.code).to.equal(0);
      const env = Object.fromEntries(fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      expect(env.GOVERN).to.equal(GOVERN);
      expect(env.GOVERN_FACTS_PATH).to.equal([path.join(t.states, 'facts.d'), t.facts, ...defaultSearchPaths().facts].join(':'));
      expect(env.GOVERN_STATE_DIR).to.equal(path.join(t.states, 'sub'));
      expect(env.GOVERN_RUN_DIR).to.match(/govern-run-/);
      expect(env).to.not.have.property('GOVERN_NOOP');
      expect(env).to.not.have.property('GOVERN_SIGNAL');
      expect(fs.existsSync(env.GOVERN_RUN_DIR)).to.equal(false, 'the run directory is removed after the run');
    });

    it('keeps runner output that is not a result line as log, and reads changed= and message=', async () => {
      const t = tree({ 'a.hcl': 'talk "x" {}\n' });
      shRunner(t.runners, 'talk', 'echo "working on $1"\necho "warning: something" >&2\necho changed=true\necho "message=made $1"');
      const report = json((await t.run(['--json'])).stdout);
      expect(report.resources[0]).to.deep.include({ ref: 'talk:x', status: 'changed', message: 'made x', log: ['working on x', 'warning: something'] });
    });

    it('takes a user runner over a shipped one of the same name', async () => {
      const t = tree({ 'a.hcl': 'pkg "emacs" {\n  state = "installed"\n}\n' });
      const mine = path.join(t.dir, 'mine');
      const marker = path.join(t.dir, 'mine-ran');
      shRunner(mine, 'pkg', `touch ${marker}`);
      await govern(['run', t.states, '--runners-dir', mine, '--runners-dir', t.runners]);
      expect(fs.existsSync(marker)).to.equal(true);
      expect(t.calls()).to.deep.equal([]);
    });
  });

  describe('the seed\'s examples', () => {
    it('runs pkg "emacs" as written', async () => {
      const t = tree({ 'emacs.hcl': 'pkg "emacs" {\n  state = "installed"\n}\n' });
      const r = await t.run(['-v']);
      expect(r.code).to.equal(0);
      expect(readCalls(t.log)).to.deep.equal([{ runner: 'pkg', name: 'emacs', signal: '', noop: '', args: ['state=installed'] }]);
      expect(r.stdout).to.match(/^unchanged pkg:emacs  handled emacs  \(\d+\.\d\ds\)$/m);
    });

    it('runs the nginx notify example: the service is restarted after everything is applied', async () => {
      const t = tree({
        'nginx.hcl': 'pkg "nginx" {\n  state = "installed"\n  changed = true\n  notify = ["service:nginx:restart"]\n}\n\nservice "nginx" {\n  state = "running"\n}\n',
      });
      const r = await t.run();
      expect(r.code).to.equal(0);
      expect(t.calls()).to.deep.equal(['pkg:nginx', 'service:nginx', 'service:nginx!restart']);
      const restart = readCalls(t.log)[2];
      expect(restart.args).to.deep.equal(['state=running']);
      expect(r.stdout).to.contain('notified  service:nginx <- restart from pkg:nginx');
    });
  });

  describe('order', () => {
    it('applies files in lexical path order and blocks in source order', async () => {
      const t = tree({
        'b.hcl': 'pkg "b1" {}\npkg "b2" {}\n',
        'a.hcl': 'pkg "z" {}\npkg "a" {}\n',
        'b/c.hcl': 'pkg "c" {}\n',
        'notes.txt': 'pkg "ignored" {}\n',
      });
      await t.run(['--jobs', '1']); // definition order between independent resources: one job at a time
      expect(t.calls()).to.deep.equal(['pkg:z', 'pkg:a', 'pkg:b1', 'pkg:b2', 'pkg:c']);
    });

    it('follows before and after across files, otherwise definition order', async () => {
      const t = tree({
        '1.hcl': 'service "web" {\n  after = ["file:/etc/web.conf"]\n}\npkg "tools" {}\n',
        '2.hcl': 'file "/etc/web.conf" {\n  after = ["pkg:web"]\n}\npkg "web" {}\nexec "first" {\n  before = ["pkg:tools"]\n}\n',
      });
      await t.run(['--jobs', '1']);
      // Always the earliest-defined resource whose predecessors are done.
      expect(t.calls()).to.deep.equal(['pkg:web', 'file:/etc/web.conf', 'service:web', 'exec:first', 'pkg:tools']);
    });
  });

  describe('notifications', () => {
    it('signals once per resource and signal, only when a notifier changed', async () => {
      const t = tree({
        'a.hcl': `file "/etc/a" {
  changed = true
  notify = ["service:web:restart", "exec:reindex"]
}
file "/etc/b" {
  changed = true
  notify = ["service:web:restart", "service:web:reload"]
}
file "/etc/c" {
  notify = ["service:db:restart"]
}
exec "reindex" {}
service "web" {}
service "db" {}
exec "watcher" {
  subscribe = ["file:/etc/a", "file#/etc/c"]
}
`,
      });
      const r = await t.run(['--json', '--jobs', '1']);
      expect(r.code).to.equal(0);
      expect(t.calls()).to.deep.equal([
        'file:/etc/a', 'file:/etc/b', 'file:/etc/c', 'exec:reindex', 'service:web', 'service:db', 'exec:watcher',
        'exec:reindex!refresh', 'service:web!restart', 'service:web!reload', 'exec:watcher!refresh',
      ]);
      const report = json(r.stdout);
      expect(report.notifications.map((n) => [n.to, n.signal, n.status, n.from])).to.deep.equal([
        ['exec:reindex', 'refresh', 'sent', ['file:/etc/a']],
        ['service:web', 'restart', 'sent', ['file:/etc/a', 'file:/etc/b']],
        ['service:web', 'reload', 'sent', ['file:/etc/b']],
        ['exec:watcher', 'refresh', 'sent', ['file:/etc/a']],
      ]);
    });

    it('fails the run when a notification fails', async () => {
      const t = tree({ 'a.hcl': 'pkg "x" {\n  changed = true\n  notify = ["bad:y:restart"]\n}\nbad "y" {}\n' });
      shRunner(t.runners, 'bad', '[ -z "${GOVERN_SIGNAL:-}" ] || { echo "unexpected signal: $GOVERN_SIGNAL" >&2; exit 1; }');
      const r = await t.run(['--detailed-exitcodes']);
      expect(r.code).to.equal(6);
      expect(r.stdout).to.match(/^failed\s+bad:y <- restart from pkg:x  unexpected signal: restart  \(/m);
    });
  });

  describe('noop', () => {
    it('tells every runner GOVERN_NOOP=1, reports would-be changes, and sends no notification', async () => {
      const t = tree({ 'a.hcl': 'pkg "nginx" {\n  changed = true\n  notify = ["service:nginx:restart"]\n}\nservice "nginx" {}\n' });
      const r = await t.run(['--noop', '--detailed-exitcodes']);
      expect(r.code).to.equal(2);
      expect(readCalls(t.log).map((c) => [c.runner, c.noop, c.signal])).to.deep.equal([['pkg', '1', ''], ['service', '1', '']]);
      expect(r.stdout).to.contain('noop      service:nginx <- restart from pkg:nginx  Would have sent restart');
      expect(r.stdout).to.match(/^noop: 2 resources, 1 would change, 1 unchanged, 0 failed, 0 skipped; 1 notification would be sent;/m);
      const report = json((await t.run(['--noop', '--json'])).stdout);
      expect(report.noop).to.equal(true);
      expect(report.notifications[0]).to.deep.include({ to: 'service:nginx', signal: 'restart', status: 'noop' });
    });
  });

  describe('errors before anything is applied', () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['a cycle', { 'a.hcl': 'pkg "a" {\n  before = ["service:b"]\n}\nservice "b" {\n  before = ["pkg:a"]\n}\n' }, /dependency cycle: pkg:a -> service:b -> pkg:a/],
      ['an unknown reference', { 'a.hcl': 'pkg "a" {}\n\nservice "b" {\n  subscribe = ["pkg:nope"]\n}\n' }, /a\.hcl:4: service:b: subscribe names "pkg:nope", which is not a resource/],
      ['a missing runner', { 'a.hcl': 'pkg "a" {}\nnosuch "b" {}\n' }, /a\.hcl:2: no runner "nosuch": no executable named nosuch in/],
      ['a syntax error', { 'a.hcl': 'pkg "a" {}\n', 'b.hcl': 'pkg "b" {\n  state = \n}\n' }, /b\.hcl:2:\d+: Invalid expression/],
      ['a duplicate resource', { 'a.hcl': 'pkg "a" {}\n', 'b.hcl': '\npkg "a" {}\n' }, /b\.hcl:2: pkg:a is declared twice \(first at .*a\.hcl:1\)/],
      ['a top-level attribute', { 'a.hcl': 'pkg "a" {}\nx = 1\n' }, /a\.hcl:2: "x = \.\.\." at the top level/],
      ['a block without one name', { 'a.hcl': 'pkg "a" {}\nrunner {}\npkg "x" "y" {}\n' }, /a\.hcl:2: block "runner" has 0 names[\s\S]*a\.hcl:3: block "pkg" has 2 names/],
      ['an HCL expression', { 'a.hcl': 'pkg "a" {\n  v = "${var.x}"\n}\n' }, /a\.hcl:2:8: "\$\{" starts an HCL interpolation, which govern does not evaluate: a literal "\$\{" is written "\$\$\{"/],
      ['an ordering key of the wrong shape', { 'a.hcl': 'pkg "a" {\n  before = 3\n}\n' }, /a\.hcl:2: pkg:a: before must be a list of RREFs/],
      ['a name starting with a dash', { 'a.hcl': 'pkg "-rf" {}\n' }, /a\.hcl:1: resource name "-rf" must not start with "-"/],
      ['a number out of range', { 'a.hcl': 'pkg "a" {\n  n = 1e400\n}\n' }, /a\.hcl:2: pkg:a: n: a number is out of range/],
      ['a missing fact', { 'a.hcl': 'pkg "{{fact "nope"}}" {}\n' }, /a\.hcl:1: fact "nope": no such fact/],
    ];
    for (const [what, files, expected] of cases) {
      it(`stops on ${what}`, async () => {
        const t = tree({ ...files, '0-first.hcl': 'pkg "early" {}\n' });
        const r = await t.run(['--detailed-exitcodes']);
        expect(r.stderr).to.match(expected);
        expect(r.code).to.equal(1);
        expect(t.calls(), 'no runner may be called').to.deep.equal([]);
      });
    }

    it('names the source line of a syntax error in a templated state file', async () => {
      const t = tree({ 'a.hcl': '{{#if (eq (fact "os/name") "Linux")}}\npkg "a" {}\n{{/if}}\npkg "b" {\n  broken = \n}\n' });
      const r = await t.run();
      expect(r.stderr).to.match(/a\.hcl:5: Invalid expression/);
    });
  });

  describe('failures', () => {
    it('skips exactly the dependents of a failed resource and applies the rest', async () => {
      const t = tree({
        'a.hcl': `pkg "broken" {
  fail = true
  notify = ["service:notified"]
}
file "/after" {
  after = ["pkg:broken"]
}
exec "chained" {
  subscribe = ["file:/after"]
}
pkg "independent" {}
service "notified" {}
exec "last" {
  changed = true
}
`,
      });
      const r = await t.run(['--json', '--detailed-exitcodes']);
      expect(r.code).to.equal(6);
      expect(t.calls().sort()).to.deep.equal(['exec:last', 'pkg:broken', 'pkg:independent']);
      const report = json(r.stdout);
      expect(report.resources.map((x) => [x.ref, x.status])).to.deep.equal([
        ['pkg:broken', 'failed'],
        ['file:/after', 'skipped'],
        ['exec:chained', 'skipped'],
        ['pkg:independent', 'unchanged'],
        ['service:notified', 'skipped'],
        ['exec:last', 'changed'],
      ]);
      expect(report.resources[0].message).to.equal('failing on purpose');
      expect(report.resources[0].log).to.deep.equal(['failing on purpose']);
      expect(report.resources[2].message).to.equal('skipped: depends on pkg:broken, which failed');
      expect(report.summary).to.deep.include({ resources: 6, changed: 1, unchanged: 1, failed: 1, skipped: 3 });
      const plain = await t.run();
      expect(plain.code).to.equal(1);
      // Where it is declared, and the message once: the log line that repeats it is left out of the text.
      expect(plain.stdout).to.match(/^failed\s+pkg:broken \(\S+\.hcl:\d+\)  failing on purpose  \(/m);
      expect(plain.stdout).to.not.contain('          | failing on purpose');
    });

    it('kills a runner at its timeout, with everything it started', async () => {
      const t = tree({ 'a.hcl': 'slow "x" {}\npkg "after" {\n  after = ["slow:x"]\n}\n' });
      const pidFile = path.join(t.dir, 'child.pid');
      shRunner(t.runners, 'slow', `sleep 300 & echo $! > ${pidFile}\nwait`);
      const started = Date.now();
      const r = await t.run(['--runner-timeout', '1s', '--json']);
      expect(Date.now() - started).to.be.below(30_000);
      const report = json(r.stdout);
      expect(report.resources[0].status).to.equal('failed');
      expect(report.resources[0].message).to.match(/timed out after 1s/);
      expect(report.resources[1].status).to.equal('skipped');
      await new Promise((res) => setTimeout(res, 100));
      expect(processAlive(Number(fs.readFileSync(pidFile, 'utf8')))).to.equal(false);
    });
  });

  describe('--jobs', () => {
    it('applies independent resources at the same time and still waits for what comes before', async () => {
      const t = tree({ 'a.hcl': 'slow "a" {}\nslow "b" {\n  after = ["slow:a"]\n}\nslow "c" {}\n' });
      const events = path.join(t.dir, 'events');
      shRunner(t.runners, 'slow', `echo "start $1" >> ${events}\nsleep 0.5\necho "end $1" >> ${events}`);
      const r = await t.run(['--jobs', '2']);
      expect(r.code).to.equal(0);
      const seq = fs.readFileSync(events, 'utf8').trim().split('\n');
      expect(seq.indexOf('start b')).to.be.greaterThan(seq.indexOf('end a'));
      expect(seq.indexOf('start c')).to.be.lessThan(seq.indexOf('end a'), 'c did not run alongside a');
    });
  });

  it('reports the run as JSON with the documented fields', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n  notify = ["service:s"]\n}\nservice "s" {}\n' });
    const r = await t.run(['--json']);
    const report = json(r.stdout);
    expect(report).to.have.keys('host', 'govern_version', 'started_at', 'state', 'noop', 'errors', 'resources', 'notifications', 'summary', 'timings');
    expect(report.resources[0]).to.have.keys('ref', 'status', 'message', 'duration_ms', 'log', 'where');
    expect(report.notifications[0]).to.have.keys('from', 'to', 'signal', 'status', 'message', 'duration_ms', 'log');
    expect(report.summary).to.deep.include({ resources: 2, changed: 1, unchanged: 1, notifications_sent: 1 });
  });

  it('shows each invocation with -vv, ready to paste', async () => {
    const t = tree({ 'a.hcl': 'pkg "emacs" {\n  state = "installed"\n}\n' });
    const r = await t.run(['-vv', '--noop']);
    expect(r.stdout).to.contain(`running   GOVERN_STATE_DIR=${t.states} GOVERN_NOOP=1 ${t.runners}/pkg emacs state=installed\n`);
  });

  it('goes on applying when the reader of its output goes away', async () => {
    const t = tree({ 'a.hcl': Array.from({ length: 30 }, (_, i) => `exec "e${i}" {}\n`).join('') });
    const r = await runCommand('/bin/sh', ['-c', `"$0" run -v "$1" --runners-dir "$2" --facts-dir "$3" | head -1`, GOVERN, t.states, t.runners, t.facts]);
    expect(r.stdout.split('\n')[0]).to.match(/^unchanged exec:e\d+ /);
    expect(t.calls()).to.have.length(30);
  });

  it('prints the graph as DOT', async () => {
    const t = tree({ 'a.hcl': 'pkg "nginx" {\n  notify = ["service:nginx:restart"]\n}\nservice "nginx" {}\n' });
    const r = await govern(['graph', t.states, '--facts-dir', t.facts]);
    expect(r.stdout).to.contain('"pkg:nginx" -> "service:nginx" [label="notify restart"];');
  });
});
