// `govern resource RUNNER NAME key=value...`: one resource from the command line, checked, applied
// and reported as a run's, under the run lock, and not recorded (docs/runners.md "govern resource");
// values kept off govern's own command line with --values-from, and a warning for a secret left there.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN, govern, TEST_VAR_DIR } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const OWNED = ['ensure=present', 'owner=root', 'group=root', 'mode=0644'];

describe('govern resource', function () {
  this.timeout(120_000);

  it('applies a file as a run would: noop, then changed (exit 2 with --detailed-exitcodes), then unchanged', async () => {
    const dir = tempDir('govern-resource-');
    const file = path.join(dir, 'motd');
    const varDir = path.join(dir, 'var');
    const resource = (extra: string[]) => govern(['resource', 'file', file, ...OWNED, 'contents=hello\n', ...extra], { env: { GOVERN_VAR_DIR: varDir } });

    const noop = await resource(['--noop']);
    expect(noop.stderr).to.equal('');
    expect(noop.code).to.equal(0);
    expect(noop.stdout).to.match(new RegExp(`^noop +file:${file} +Would have created the file`, 'm'));
    expect(noop.stdout).to.match(/^noop: 1 resource, 1 would change/m);
    expect(fs.existsSync(file)).to.equal(false);

    const applied = await resource(['--detailed-exitcodes']);
    expect(applied.code, applied.stderr).to.equal(2);
    expect(applied.stdout).to.match(new RegExp(`^changed +file:${file} +created the file`, 'm'));
    expect(fs.readFileSync(file, 'utf8')).to.equal('hello\n');
    expect((fs.statSync(file).mode & 0o7777).toString(8)).to.equal('644');

    const again = await resource(['--detailed-exitcodes']);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.match(/^1 resource, 0 changed, 1 unchanged, 0 failed/m);

    // Not the tree's run: nothing recorded for govern status.
    expect(fs.existsSync(path.join(varDir, 'last-run.json'))).to.equal(false);
    const status = await govern(['status'], { env: { GOVERN_VAR_DIR: varDir } });
    expect(status.stdout).to.match(/^GOVERN UNKNOWN - no run recorded/);
  });

  it('a key given more than once is a list, as the runner protocol passes it', async () => {
    const dir = tempDir('govern-resource-');
    const out = path.join(dir, 'out');
    const r = await govern(['resource', 'exec', 'envs', `command=/bin/sh -c "env > ${out}"`, 'provider=shell', 'environment=A=one', 'environment=B=two words']);
    expect(r.code, r.stderr).to.equal(0);
    const env = fs.readFileSync(out, 'utf8').split('\n');
    expect(env).to.include.members(['A=one', 'B=two words']);
  });

  it('reads a relative source from the directory govern was started in (GOVERN_STATE_DIR)', async () => {
    const dir = tempDir('govern-resource-');
    fs.writeFileSync(path.join(dir, 'motd.txt'), 'from source\n');
    const file = path.join(dir, 'motd');
    const r = await govern(['resource', 'file', file, ...OWNED, 'source=motd.txt'], { cwd: dir });
    expect(r.code, r.stderr).to.equal(0);
    expect(fs.readFileSync(file, 'utf8')).to.equal('from source\n');
  });

  it('checks the resource against its runner before anything is applied, every problem at once', async () => {
    const dir = tempDir('govern-resource-');
    const file = path.join(dir, 'x');
    const typo = await govern(['resource', 'file', file, ...OWNED, 'contnts=x']);
    expect(typo.code).to.equal(1);
    expect(typo.stdout).to.equal('');
    expect(typo.stderr).to.include(`command line: file:${file}: unknown key "contnts" (did you mean "contents"?)`);
    expect(fs.existsSync(file)).to.equal(false);

    const runner = await govern(['resource', 'fil', file]);
    expect(runner.code).to.equal(1);
    expect(runner.stderr).to.match(/command line: no runner "fil": .*\(did you mean "file"\?\)/);

    const bad = await govern(['resource', 'file', file, 'ensure', 'after=pkg:x', 'noop=true', 'template=motd.hbs']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr.split('\n').filter((l) => l !== '')).to.deep.equal([
      'govern: command line: "ensure" is not key=value',
      'govern: command line: after=...: a resource applied alone has no ordering or tags',
      'govern: command line: noop=...: give --noop for a resource applied alone',
      'govern: command line: template=...: templates are rendered only in a state tree; give contents=...',
    ]);

    const alone = await govern(['resource', 'file']);
    expect(alone.code).to.equal(1);
    expect(alone.stderr).to.include('give a runner and a resource name: govern resource [OPTIONS] RUNNER NAME [KEY=VALUE...]');
  });

  it('a failure is reported as a run reports it, exit 1; --json gives the run report with state = the RREF', async () => {
    const failed = await govern(['resource', 'exec', 'fails', 'command=/bin/false']);
    expect(failed.code).to.equal(1);
    expect(failed.stdout).to.match(/^failed +exec:fails \(command line\) +"\/bin\/false" failed \(exit 1, expected 0\)/m);
    const json = await govern(['resource', 'exec', 'fails', 'command=/bin/false', '--json']);
    expect(json.code).to.equal(1);
    const report = JSON.parse(json.stdout);
    expect(report.state).to.equal('exec:fails');
    expect(report.summary).to.include({ resources: 1, failed: 1 });

    const options = await govern(['resource', 'exec', 'x', '--json', '--jobs', 'many']);
    expect(options.code).to.equal(1);
    const unread = JSON.parse(options.stdout);
    expect(unread.state).to.equal('exec:x');
    expect(unread.errors[0].message).to.include('--jobs');
  });

  it('sensitive=true keeps the values out of the output', async () => {
    const dir = tempDir('govern-resource-');
    const file = path.join(dir, 'secret');
    const r = await govern(['resource', 'file', file, ...OWNED, 'contents=hunter2\n', 'sensitive=true', '--noop']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout + r.stderr).to.not.include('hunter2');
  });

  it('--values-from: KEY=VALUE lines from stdin (-) or a file, after the command line\'s, problems at their line', async () => {
    const dir = tempDir('govern-resource-');
    const file = path.join(dir, 'motd');
    const fromStdin = (args: string[], input: string) => runCommand(GOVERN, ['resource', ...args], { input, env: { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR } });
    const r = await fromStdin(['file', file, 'ensure=present', 'owner=root', '--values-from', '-'], 'contents=kept off the command line\n# a comment\n\ngroup=root\nmode=0600\n');
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.equal('');
    expect(fs.readFileSync(file, 'utf8')).to.equal('kept off the command line');
    expect((fs.statSync(file).mode & 0o7777).toString(8)).to.equal('600');

    const values = path.join(dir, 'values');
    fs.writeFileSync(values, 'environment=B=two\n');
    const out = path.join(dir, 'out');
    const listed = await govern(['resource', 'exec', 'envs', `command=/bin/sh -c "env > ${out}"`, 'provider=shell', 'environment=A=one', '--values-from', values]);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(fs.readFileSync(out, 'utf8').split('\n')).to.include.members(['A=one', 'B=two']);

    const bad = await fromStdin(['file', path.join(dir, 'x'), ...OWNED, '--values-from', '-'], 'contents=x\nnot a pair\nnotify=service:x\n');
    expect(bad.code).to.equal(1);
    expect(bad.stderr.split('\n').filter((l) => l !== '')).to.deep.equal([
      'govern: stdin:2: the line is not key=value (not shown: it may hold a secret)',
      'govern: stdin:3: notify=...: a resource applied alone has no ordering or tags',
    ]);
    expect(fs.existsSync(path.join(dir, 'x'))).to.equal(false);

    const crlf = await fromStdin(['file', path.join(dir, 'x'), ...OWNED, '--values-from', '-'], 'contents=x\r\n# a comment\r\n');
    expect(crlf.code).to.equal(1);
    expect(crlf.stderr.split('\n').filter((l) => l !== '')).to.deep.equal([
      'govern: stdin:1: the line ends with a carriage return (CRLF line ends?): write the file with LF line ends',
      'govern: stdin:2: the line ends with a carriage return (CRLF line ends?): write the file with LF line ends',
    ]);
    expect(fs.existsSync(path.join(dir, 'x'))).to.equal(false);
  });

  it('warns of a secret given on the command line (a key the runner marks sensitive, or sensitive=true), not of one from stdin', async () => {
    const hash = '$6$salt$' + 'x'.repeat(86);
    const user = ['resource', 'user', 'govresnosuch', `--noop`];
    const onArgv = await govern([...user, `password=${hash}`]);
    expect(onArgv.code, onArgv.stderr).to.equal(0);
    expect(onArgv.stderr).to.equal(
      "govern: warning: password is secret (runner user marks it sensitive), and it was given on govern's command line, which every local user can read while it runs (ps, /proc/PID/cmdline): give it with --values-from FILE, or --values-from - on stdin\n",
    );
    expect(onArgv.stdout).to.not.include(hash);
    const onStdin = await runCommand(GOVERN, [...user, '--values-from', '-'], { input: `password=${hash}\n`, env: { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR } });
    expect(onStdin.code, onStdin.stderr).to.equal(0);
    expect(onStdin.stderr).to.equal('');
    expect(onStdin.stdout).to.match(/^noop +user:govresnosuch +Would have created/m);

    const dir = tempDir('govern-resource-');
    const marked = await govern(['resource', 'file', path.join(dir, 's'), ...OWNED, 'contents=hunter2', 'sensitive=true', '--noop']);
    expect(marked.stderr).to.match(/^govern: warning: sensitive=true hides the values in govern's output, but ensure, owner, group, mode and contents were given on govern's command line/);
  });

  it('takes the run lock: with a run under way and --lock-timeout 0 it applies nothing', async () => {
    const dir = tempDir('govern-resource-');
    const started = path.join(dir, 'started');
    const gate = path.join(dir, 'gate');
    fs.writeFileSync(gate, '');
    const holder = govern(['resource', 'exec', 'hold', `command=touch ${started}; while [ -e ${gate} ]; do sleep 0.05; done`, 'provider=shell', 'timeout=0']);
    try {
      const deadline = Date.now() + 60_000;
      while (!fs.existsSync(started)) {
        if (Date.now() > deadline) throw new Error('the holding resource never started');
        await sleep(20);
      }
      const file = path.join(dir, 'x');
      const r = await govern(['resource', 'file', file, ...OWNED, '--lock-timeout', '0']);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/is under way; not waiting \(--lock-timeout 0\)/);
      expect(fs.existsSync(file)).to.equal(false);
    } finally {
      fs.rmSync(gate, { force: true });
    }
    expect((await holder).code).to.equal(0);
  });
});
