// exec's user, group, umask, tries and try_sleep, run for real: the command and its checks as
// `nobody` (uid, group, HOME), a umask on what it creates, a command tried until it succeeds.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import { runner } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

async function exec(name: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const r = await runner('exec', [name, ...args], { env, timeoutMs: 60_000 });
  return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
}

/** A directory anyone may create files in, as /tmp. */
function sharedDir(): string {
  const dir = tempDir('govern-exec-identity-');
  fs.chmodSync(dir, 0o1777);
  return dir;
}

describe('exec runner: user, group, umask, tries #once', function () {
  this.timeout(60_000);
  before(function () {
    if (process.getuid?.() !== 0) this.skip();
  });

  it('runs the command as nobody, with its group, its HOME and the umask', async () => {
    const dir = sharedDir();
    const made = path.join(dir, 'made');
    const r = await exec('as nobody', [`command=sh -c 'touch ${made}; echo "$(id -un) $(id -gn) $HOME $USER"'`, 'user=nobody', 'umask=077', 'logoutput=true']);
    expect(r).to.deep.include({ code: 0, changed: true });
    expect(r.stderr).to.include('stdout: nobody nogroup /nonexistent nobody');
    const stat = fs.statSync(made);
    expect(stat.uid).to.equal(65534);
    expect(stat.mode & 0o777).to.equal(0o600);
  });

  it('runs unless and onlyif as that user too', async () => {
    const dir = sharedDir();
    const made = path.join(dir, 'made');
    // As root, `test "$(id -u)" = 0` succeeds and unless would skip the command; as nobody it fails.
    const r = await exec(`touch ${made}`, ['user=nobody', `unless=sh -c 'test "$(id -u)" = 0'`, `onlyif=sh -c 'test "$(id -u)" = 65534'`]);
    expect(r).to.deep.include({ code: 0, changed: true });
    expect(fs.statSync(made).uid).to.equal(65534);
  });

  it('group alone: the gid, no supplementary groups', async () => {
    const r = await exec('group', [`command=sh -c 'echo "$(id -u) $(id -g) $(id -G)"'`, 'group=nogroup', 'logoutput=true']);
    expect(r).to.deep.include({ code: 0, changed: true });
    expect(r.stderr).to.include('stdout: 0 65534 65534');
  });

  it('an unknown user fails before anything runs', async () => {
    const dir = sharedDir();
    const r = await exec(`touch ${dir}/x`, ['user=govern-no-such-user']);
    expect(r.code).to.equal(1);
    expect(r.message).to.equal('unknown user "govern-no-such-user" (getent passwd govern-no-such-user found no entry)');
    expect(fs.existsSync(`${dir}/x`)).to.equal(false);
  });

  it('in noop, a user an earlier resource would create gets a note instead of a failure', async () => {
    const r = await exec('/bin/true', ['user=govern-no-such-user'], { GOVERN_NOOP: '1', GOVERN_NOOP_PENDING: 'user:govern-no-such-user' });
    expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have executed (user "govern-no-such-user" does not exist yet: user:govern-no-such-user would create it)' });
  });

  it('tries the command until it succeeds, try_sleep apart, and fails when every try failed', async () => {
    const dir = tempDir('govern-exec-tries-');
    const count = path.join(dir, 'count');
    const third = `echo x >> ${count}; test "$(wc -l < ${count})" -ge 3`;
    const r = await exec('third time', [`command=${third}`, 'provider=shell', 'tries=5', 'try_sleep=0.1s']);
    expect(r).to.deep.include({ code: 0, changed: true });
    expect(fs.readFileSync(count, 'utf8')).to.equal('x\nx\nx\n');
    expect(r.stderr).to.include('try 2 failed (exit 1); next in 0.1s');

    fs.rmSync(count);
    const failed = await exec('third time', [`command=${third}`, 'provider=shell', 'tries=2']);
    expect(failed.code).to.equal(1);
    expect(fs.readFileSync(count, 'utf8')).to.equal('x\nx\n');
  });
});
