// End to end: the real runners/exec executable, running real commands.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import { runner } from '../../support/cli.js';
import { processAlive } from '../../support/proc.js';
import { tempDir, writeFile } from '../../support/tmp.js';

async function exec(name: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const r = await runner('exec', [name, ...args], { env, timeoutMs: 60_000 });
  return { ...r, result: parseResult(r.stdout) };
}

const noop = { GOVERN_NOOP: '1' };
const refresh = { GOVERN_SIGNAL: 'refresh' };

describe('runners/exec #once', () => {
  let dir: string;
  let marker: string;
  beforeEach(() => {
    dir = tempDir();
    marker = path.join(dir, 'ran');
  });
  const ran = () => fs.existsSync(marker);

  describe('command and providers', () => {
    it('runs the resource name as the command when command is not set', async () => {
      const r = await exec(`touch ${marker}`);
      expect(r.code).to.equal(0);
      expect(r.stdout).to.equal('changed=true\nmessage=executed (exit 0)\n');
      expect(ran()).to.equal(true);
    });

    it('runs command rather than the name when it is set', async () => {
      const r = await exec('create the marker', [`command=touch ${marker}`]);
      expect(r.result).to.include({ changed: true, message: 'executed (exit 0)' });
      expect(ran()).to.equal(true);
    });

    it('posix: splits quoted arguments with spaces into argv', async () => {
      const r = await exec('x', [`command=touch "${dir}/with space" '${dir}/two  spaces' ${dir}/plain\\ escaped`]);
      expect(r.code).to.equal(0);
      expect(fs.readdirSync(dir).sort()).to.deep.equal(['plain escaped', 'two  spaces', 'with space']);
    });

    it('posix: passes quoted shell characters as literal arguments, without a shell', async () => {
      const r = await exec('x', [`command=printf '%s\\n' '$HOME' "a|b" 'c > d' '*'`, 'logoutput=true']);
      expect(r.code).to.equal(0);
      expect(r.stderr).to.include('stdout: $HOME\nstdout: a|b\nstdout: c > d\nstdout: *\n');
    });

    it('posix: refuses a shell operator before running anything, suggesting provider = "shell"', async () => {
      const r = await exec('x', [`command=echo hi > ${marker}`, `unless=touch ${dir}/guard-ran`]);
      expect(r.code).to.equal(1);
      expect(r.result.message).to.match(/shell operator ">".*use provider = "shell"/);
      expect(ran()).to.equal(false);
      expect(fs.existsSync(path.join(dir, 'guard-ran')), 'the unless guard ran').to.equal(false);
    });

    it('posix: refuses a variable, and a pipe in an unless command', async () => {
      expect((await exec('x', ['command=echo $HOME'])).result.message).to.match(/the variable "\$HOME"/);
      expect((await exec('x', ['command=true', 'unless=ls | grep x'])).result.message).to.match(/shell operator "\|"/);
    });

    it('shell: runs pipes, redirections and variables through /bin/sh -c', async () => {
      const out = path.join(dir, 'out');
      const r = await exec('x', ['provider=shell', `command=printf 'a\\nb\\nc\\n' | wc -l > ${out}; echo "$HOME" >> ${out}`]);
      expect(r.code).to.equal(0);
      expect(fs.readFileSync(out, 'utf8').split('\n').map((l) => l.trim())).to.deep.equal(['3', process.env.HOME, '']);
    });

    it('closes stdin, so a command that reads it does not hang', async () => {
      const r = await exec('cat', ['timeout=20s']);
      expect(r.code).to.equal(0);
      expect(r.durationMs).to.be.below(10_000);
    });
  });

  describe('environment, path, cwd', () => {
    it('adds environment entries to the environment the command inherits', async () => {
      const out = path.join(dir, 'out');
      const r = await exec('x', ['provider=shell', 'environment=GREETING=hello world', 'environment=EQ=a=b',
        `command=printf '%s|%s|%s' "$GREETING" "$EQ" "$KEPT" > ${out}`], { KEPT: 'inherited' });
      expect(r.code).to.equal(0);
      expect(fs.readFileSync(out, 'utf8')).to.equal('hello world|a=b|inherited');
    });

    it('hides GOVERN_NOOP and GOVERN_SIGNAL from the command', async () => {
      const out = path.join(dir, 'out');
      const r = await exec('x', ['provider=shell', `command=printf '%s' "\${GOVERN_SIGNAL-unset}" > ${out}`], refresh);
      expect(r.code).to.equal(0);
      expect(fs.readFileSync(out, 'utf8')).to.equal('unset');
    });

    it('refuses a bad environment name', async () => {
      const r = await exec(`touch ${marker}`, ['environment=BAD-NAME=1']);
      expect(r.code).to.equal(1);
      expect(r.result.message).to.equal('environment "BAD-NAME=1" is not KEY=value (KEY: letters, digits and _, not starting with a digit)');
      expect(ran()).to.equal(false);
    });

    it('posix: finds the program in path, and sets PATH to it', async () => {
      const bin = path.join(dir, 'bin');
      writeFile(path.join(bin, 'mytool'), `#!/bin/sh\nprintf '%s' "$PATH" > ${marker}\n`, 0o755);
      const r = await exec('mytool', [`path=${bin}:/usr/bin:/bin`]);
      expect(r.code).to.equal(0);
      expect(fs.readFileSync(marker, 'utf8')).to.equal(`${bin}:/usr/bin:/bin`);
    });

    it('posix: looks only in path, not in the runner\'s own PATH', async () => {
      const r = await exec('sh -c true', [`path=${dir}`]);
      expect(r.code).to.equal(1);
      expect(r.result.message).to.equal(`program "sh" not found in PATH ${dir}`);
    });

    it('shell: the shell looks up programs in path', async () => {
      const bin = path.join(dir, 'bin');
      writeFile(path.join(bin, 'mytool'), `#!/bin/sh\ntouch ${marker}\n`, 0o755);
      const r = await exec('mytool && true', ['provider=shell', `path=${bin}:/usr/bin:/bin`]);
      expect(r.code).to.equal(0);
      expect(ran()).to.equal(true);
    });

    it('refuses a relative path entry', async () => {
      const r = await exec(`touch ${marker}`, ['path=/usr/bin:bin']);
      expect(r.code).to.equal(1);
      expect(r.result.message).to.match(/path "\/usr\/bin:bin" is not absolute directories separated by ":"/);
      expect(ran()).to.equal(false);
    });

    it('runs the command in cwd', async () => {
      const r = await exec('touch relative-file', [`cwd=${dir}`]);
      expect(r.code).to.equal(0);
      expect(fs.existsSync(path.join(dir, 'relative-file'))).to.equal(true);
    });

    it('posix: runs a relative program path from cwd', async () => {
      writeFile(path.join(dir, 'script'), `#!/bin/sh\ntouch ${marker}\n`, 0o755);
      const r = await exec('./script', [`cwd=${dir}`]);
      expect(r.code).to.equal(0);
      expect(ran()).to.equal(true);
    });

    it('refuses a relative cwd, and a cwd that does not exist', async () => {
      expect((await exec('true', ['cwd=tmp'])).result.message).to.equal('cwd "tmp" is not an absolute path (it must start with "/")');
      const missing = await exec('true', [`cwd=${dir}/missing`]);
      expect(missing.code).to.equal(1);
      expect(missing.result.message).to.equal(`cwd ${dir}/missing does not exist`);
    });
  });

  describe('returns and timeout', () => {
    it('accepts any exit code listed in returns', async () => {
      const r = await exec(`sh -c 'exit 2'`, ['returns=0', 'returns=2']);
      expect(r.code).to.equal(0);
      expect(r.result).to.include({ changed: true, message: 'executed (exit 2)' });
      expect((await exec('true', ['returns=0', 'returns=2'])).result.message).to.equal('executed (exit 0)');
    });

    it('fails on an exit code outside returns, with the code and the last lines of output', async () => {
      const r = await exec(`sh -c 'echo out1; for i in 1 2 3 4 5 6 7; do echo err$i >&2; done; exit 3'`, ['returns=0', 'returns=2']);
      expect(r.code).to.equal(1);
      expect(r.result.changed).to.equal(false);
      expect(r.result.message).to.match(/ failed \(exit 3, expected 0 or 2\): err3 \| err4 \| err5 \| err6 \| err7$/);
    });

    it('fails on a non-zero exit by default', async () => {
      const r = await exec('false');
      expect(r.code).to.equal(1);
      expect(r.result.message).to.equal('"false" failed (exit 1, expected 0)');
    });

    it('names a program that does not exist in words', async () => {
      const r = await exec('/nonexistent/bin/tool');
      expect(r.code).to.equal(1);
      expect(r.result.message).to.equal('"/nonexistent/bin/tool" failed (program not found: /nonexistent/bin/tool)');
    });

    it('kills a command past its timeout, and the child it spawned', async () => {
      const pidFile = path.join(dir, 'child.pid');
      const r = await exec(`sh -c 'sleep 60 & echo $! > ${pidFile}; echo started; wait'`, ['timeout=1s']);
      expect(r.code).to.equal(1);
      expect(r.result.message).to.match(/ failed \(timed out after 1s and was killed\): started$/);
      expect(r.durationMs).to.be.below(15_000);
      const child = Number(fs.readFileSync(pidFile, 'utf8'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processAlive(child), `child sleep ${child} was left behind`).to.equal(false);
    });
  });

  describe('logoutput', () => {
    const talker = `sh -c 'echo to-stdout; echo to-stderr >&2; exit "$0"'`;

    it('true: logs the output on success, each line prefixed with its stream', async () => {
      const r = await exec(talker.replace('"$0"', '0'), ['logoutput=true']);
      expect(r.code).to.equal(0);
      expect(r.stderr).to.include('stdout: to-stdout\n').and.include('stderr: to-stderr\n');
    });

    it('on_failure (the default): no output on success, all of it on failure', async () => {
      const ok = await exec(talker.replace('"$0"', '0'));
      expect(ok.stderr).not.to.include('stdout: to-stdout');
      expect(ok.stderr).not.to.include('stderr: to-stderr');
      const failed = await exec(talker.replace('"$0"', '4'));
      expect(failed.code).to.equal(1);
      expect(failed.stderr).to.include('stdout: to-stdout\n').and.include('stderr: to-stderr\n');
    });

    it('false: never logs the output (the failure message still quotes its end)', async () => {
      const r = await exec(talker.replace('"$0"', '4'), ['logoutput=false']);
      expect(r.code).to.equal(1);
      expect(r.stderr).not.to.include('stdout: to-stdout');
      expect(r.stderr).not.to.include('stderr: to-stderr');
      expect(r.result.message).to.match(/\(exit 4, expected 0\): to-stderr$/);
    });

    it('the command cannot forge result lines: its output never reaches the runner\'s stdout', async () => {
      const forger = `sh -c 'echo changed=false; echo message=forged; echo changed=false >&2; exit "$0"'`;
      const ok = await exec(forger.replace('"$0"', '0'), ['logoutput=true']);
      expect(ok.stdout).to.equal('changed=true\nmessage=executed (exit 0)\n');
      expect(ok.stderr).to.include('stdout: changed=false\nstdout: message=forged\n');
      const failed = await exec(forger.replace('"$0"', '1'));
      expect(failed.stdout.split('\n').filter((l) => l !== '')).to.have.length(1);
      expect(failed.result).to.include({ changed: false });
      expect(failed.result.message).to.match(/^"sh -c .* failed \(exit 1, expected 0\)/);
    });
  });

  describe('the decision table, end to end', () => {
    it('creates exists: not run', async () => {
      const creates = writeFile(path.join(dir, 'done'), '');
      const r = await exec(`touch ${marker}`, [`creates=${creates}`]);
      expect(r.code).to.equal(0);
      expect(r.stdout).to.equal(`changed=false\nmessage=not run: ${creates} exists\n`);
      expect(ran()).to.equal(false);
    });

    it('creates missing: runs, and the next run does not', async () => {
      const first = await exec(`touch ${marker}`, [`creates=${marker}`]);
      expect(first.result).to.include({ changed: true });
      const second = await exec(`touch ${marker}`, [`creates=${marker}`]);
      expect(second.result).to.include({ changed: false, message: `not run: ${marker} exists` });
    });

    it('warns when the command did not make its creates file', async () => {
      const r = await exec('true', [`creates=${marker}`]);
      expect(r.result.changed).to.equal(true);
      expect(r.stderr).to.include(`warning: ${marker} (creates) still does not exist`);
    });

    it('refresh_only without a notification: not run', async () => {
      const r = await exec(`touch ${marker}`, ['refresh_only=true']);
      expect(r.stdout).to.equal('changed=false\nmessage=not run: refresh_only and not notified\n');
      expect(ran()).to.equal(false);
    });

    it('refresh_only with a refresh notification: runs', async () => {
      const r = await exec(`touch ${marker}`, ['refresh_only=true'], refresh);
      expect(r.result).to.include({ changed: true, message: 'executed (exit 0)' });
      expect(ran()).to.equal(true);
    });

    it('a refresh notification runs even though the creates file exists', async () => {
      const creates = writeFile(path.join(dir, 'done'), '');
      const r = await exec(`touch ${marker}`, [`creates=${creates}`, 'refresh_only=true'], refresh);
      expect(r.result.changed).to.equal(true);
      expect(ran()).to.equal(true);
    });

    it('a signal other than refresh fails, and runs nothing', async () => {
      const r = await exec(`touch ${marker}`, [], { GOVERN_SIGNAL: 'reload' });
      expect(r.code).to.equal(1);
      expect(r.result.message).to.equal('exec does not accept the signal "reload" (it accepts refresh)');
      expect(ran()).to.equal(false);
    });

    it('unless exits 0: not run; unless exits non-zero: runs', async () => {
      const flag = path.join(dir, 'flag');
      const skipped = await exec(`touch ${marker}`, [`unless=test -e ${flag}`, 'unless=true']);
      expect(skipped.result).to.include({ changed: false, message: 'not run: unless command "true" exited 0' });
      expect(ran()).to.equal(false);
      const run = await exec(`touch ${marker}`, [`unless=test -e ${flag}`, 'unless=false']);
      expect(run.result.changed).to.equal(true);
      expect(ran()).to.equal(true);
      expect(run.stderr).to.include(`unless command "test -e ${flag}" exited 1`);
    });

    it('onlyif exits 0: runs; onlyif exits non-zero: not run', async () => {
      const skipped = await exec(`touch ${marker}`, ['onlyif=true', `onlyif=test -e ${dir}/missing`]);
      expect(skipped.result).to.include({ changed: false, message: `not run: onlyif command "test -e ${dir}/missing" exited 1` });
      expect(ran()).to.equal(false);
      const run = await exec(`touch ${marker}`, ['onlyif=true', `onlyif=test -d ${dir}`]);
      expect(run.result.changed).to.equal(true);
      expect(ran()).to.equal(true);
    });

    it('guards go through the same provider, environment and cwd as the command', async () => {
      const r = await exec(`touch ${marker}`, ['provider=shell', 'environment=WANT=yes', `cwd=${dir}`,
        `onlyif=[ "$WANT" = yes ] && [ "$(pwd)" = "${dir}" ] && echo ok | grep -q ok`]);
      expect(r.result.changed).to.equal(true);
      const refused = await exec(`touch ${marker}`, [`onlyif=[ "$WANT" = yes ]`]);
      expect(refused.result.message).to.match(/the variable "\$WANT"/);
    });

    it('a guard that cannot run fails the resource', async () => {
      const r = await exec(`touch ${marker}`, ['unless=no-such-program-here']);
      expect(r.code).to.equal(1);
      expect(r.result.message).to.match(/program "no-such-program-here" not found/);
      expect(ran()).to.equal(false);
      const slow = await exec(`touch ${marker}`, ['onlyif=sleep 30', 'timeout=500ms']);
      expect(slow.result.message).to.equal('onlyif command "sleep 30" failed (timed out after 500ms and was killed)');
      expect(ran()).to.equal(false);
    });
  });

  describe('noop', () => {
    it('says "Would have executed" and does not run the command', async () => {
      const r = await exec(`touch ${marker}`, [], noop);
      expect(r.stdout).to.equal('changed=true\nmessage=Would have executed\n');
      expect(ran()).to.equal(false);
    });

    it('says "Would have executed via subscribe" when notified', async () => {
      const r = await exec(`touch ${marker}`, ['refresh_only=true'], { ...noop, ...refresh });
      expect(r.stdout).to.equal('changed=true\nmessage=Would have executed via subscribe\n');
      expect(ran()).to.equal(false);
    });

    it('skips as a real run would: creates and refresh_only', async () => {
      const creates = writeFile(path.join(dir, 'done'), '');
      expect((await exec(`touch ${marker}`, [`creates=${creates}`], noop)).result.changed).to.equal(false);
      expect((await exec(`touch ${marker}`, ['refresh_only=true'], noop)).result.changed).to.equal(false);
    });

    it('runs unless and onlyif, since they only read', async () => {
      const skipped = await exec(`touch ${marker}`, ['unless=true'], noop);
      expect(skipped.result).to.include({ changed: false, message: 'not run: unless command "true" exited 0' });
      const would = await exec(`touch ${marker}`, ['unless=false', 'onlyif=true'], noop);
      expect(would.result).to.include({ changed: true, message: 'Would have executed' });
      expect(would.stderr).to.include('onlyif command "true" exited 0');
      expect(ran()).to.equal(false);
    });
  });
});
