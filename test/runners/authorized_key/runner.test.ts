// The real runners/authorized_key in both runner modes, for a real user the test creates (useradd,
// removed after) and keys made by ssh-keygen: ~/.ssh and the file created with StrictModes' owner and
// modes, noop, the second run, options, exclusive, absent; and govern's ordering after the user.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../../src/shared/process.js';
import { govern } from '../../support/cli.js';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { hostExclusive } from '../../support/host-lock.js';

const USER = `govern-ak-${process.pid}`;

async function must(command: string, args: string[]): Promise<string> {
  const r = await runCommand(command, args, { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

async function newKey(): Promise<{ type: string; key: string }> {
  const file = path.join(tempDir('govern-ak-key-'), 'id');
  await must('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test', '-f', file]);
  const [type, key] = fs.readFileSync(`${file}.pub`, 'utf8').split(' ');
  return { type, key };
}

describe('authorized_key runner (a real user, keys from ssh-keygen) #once', function () {
  hostExclusive();
  this.timeout(120_000);
  let home: string;
  let uid: number;

  before(async () => {
    // Not a tempDir: those are removed after each test.
    home = path.join(os.tmpdir(), `${USER}-home`);
    await must('useradd', ['-m', '-d', home, '-s', '/bin/sh', USER]);
    uid = fs.statSync(home).uid;
  });
  after(async () => {
    await runCommand('userdel', ['-r', USER], { timeoutMs: 60_000 });
  });
  beforeEach(() => fs.rmSync(path.join(home, '.ssh'), { recursive: true, force: true }));

  for (const mode of MODES) {
    it(`creates ~/.ssh 0700 and the file 0600 as the user's; noop, options, exclusive, absent; the second run changes nothing (${mode})`, async () => {
      const admin = await newKey();
      const other = await newKey();
      const file = path.join(home, '.ssh', 'authorized_keys');
      const ak = (name: string, k: { type: string; key: string }, args: string[] = [], env: Record<string, string> = {}) =>
        callRunner('authorized_key', mode, name, [`user=${USER}`, `type=${k.type}`, `key=${k.key}`, ...args], env);

      const noop = await ak('admin', admin, [], { GOVERN_NOOP: '1' });
      expect(noop, noop.message).to.include({ ok: true, changed: true, message: 'Would have added the key' });
      expect(fs.existsSync(path.join(home, '.ssh'))).to.equal(false);
      expect(await ak('admin', admin)).to.include({ ok: true, changed: true, message: 'added the key' });
      expect(fs.readFileSync(file, 'utf8')).to.equal(`${admin.type} ${admin.key} admin\n`);
      const dir = fs.statSync(path.join(home, '.ssh'));
      const st = fs.statSync(file);
      expect([dir.mode & 0o777, dir.uid, st.mode & 0o777, st.uid]).to.deep.equal([0o700, uid, 0o600, uid]);
      expect(await ak('admin', admin)).to.include({ ok: true, changed: false, message: 'key present' });

      expect(await ak('deploy', other, ['options=no-pty', 'options=from="127.0.0.1"', 'comment=deploy key'])).to.include({ changed: true, message: 'added the key' });
      expect(fs.readFileSync(file, 'utf8').split('\n')[1]).to.equal(`no-pty,from="127.0.0.1" ${other.type} ${other.key} deploy key`);

      fs.chmodSync(file, 0o666);
      const exclusive = await ak('admin', admin, ['exclusive=true']);
      expect(exclusive).to.include({ changed: true, message: `removed 1 other key (exclusive); changed ${file} (mode 0666 -> 0644)` });
      expect(exclusive.diff?.split('\n')).to.include(`-no-pty,from="127.0.0.1" ${other.type} ${other.key} deploy key`);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o644);

      const absent = await callRunner('authorized_key', mode, 'admin', [`user=${USER}`, `key=${admin.key}`, 'ensure=absent']);
      expect(absent, `${absent.message} ${absent.log}`).to.include({ changed: true, message: 'removed the key' });
      expect(fs.readFileSync(file, 'utf8')).to.equal('');
    });
  }

  it('refuses a link in place of ~/.ssh, an unknown user, and bad keys before anything', async () => {
    const k = await newKey();
    fs.symlinkSync('/tmp', path.join(home, '.ssh'));
    const linked = await callRunner('authorized_key', 'oneshot', 'x', [`user=${USER}`, `type=${k.type}`, `key=${k.key}`]);
    expect(linked.message).to.contain(`${home}/.ssh is a symbolic link`);
    const unknown = await callRunner('authorized_key', 'oneshot', 'x', ['user=govern-no-such-user', `type=${k.type}`, `key=${k.key}`]);
    expect(unknown.message).to.equal('unknown user "govern-no-such-user" (getent passwd govern-no-such-user found no entry)');
    const bad = await callRunner('authorized_key', 'oneshot', 'x', [`user=${USER}`, 'type=ssh-ed25518', 'key=not base64!', 'exclusiv=true']);
    expect(bad.message).to.contain('type "ssh-ed25518" is not one of');
    expect(bad.message).to.contain('unknown key "exclusiv" (did you mean "exclusive"?)');
  });

  for (const mode of MODES) {
    it(`an option cannot end its quoted value early (sshd reads \\" as a quote): refused; quoted values with blanks written so ssh-keygen reads one key (${mode})`, async () => {
      const k = await newKey();
      const file = path.join(home, '.ssh', 'authorized_keys');
      const ak = (options: string[]) => callRunner('authorized_key', mode, 'deploy', [`user=${USER}`, `type=${k.type}`, `key=${k.key}`, ...options.map((o) => `options=${o}`)]);
      const injected = await ak(['principals="\\"', 'x=" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIATTACKER attacker"']);
      expect(injected.ok).to.equal(false);
      expect(injected.message).to.contain(String.raw`options "principals=\"\\\"" is not an option such as no-pty or from="10.0.0.0/8" (a value without quotes, not ending in a backslash)`);
      expect(fs.existsSync(file)).to.equal(false);

      expect(await ak(['command="printf a\\\\b c"', 'x=" ssh-ed25519 AAAA attacker"'])).to.include({ ok: true, changed: true });
      const listed = (await must('ssh-keygen', ['-l', '-f', file])).trim().split('\n');
      const pub = writeFile(path.join(tempDir('govern-ak-pub-'), 'k.pub'), `${k.type} ${k.key}\n`);
      const fingerprint = (await must('ssh-keygen', ['-l', '-f', pub])).split(' ')[1];
      expect(listed).to.have.length(1);
      expect(listed[0].split(' ')[1]).to.equal(fingerprint);
    });
  }

  it('govern graph orders a key after its user, and keys of one user one after the other', async () => {
    const states = tempDir('govern-ak-states-');
    writeFile(
      path.join(states, 'keys.hcl'),
      `authorized_key "a" {
  user = "alice"
  type = "ssh-ed25519"
  key  = "AAAAC3Nz"
}

authorized_key "b" {
  user = "alice"
  type = "ssh-ed25519"
  key  = "AAAAC3Nzb"
}

user "alice" {
  ensure = "present"
}
`,
    );
    const r = await govern(['graph', states]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.contain('"user:alice" -> "authorized_key:a" [label="autorequire"];');
    expect(r.stdout).to.contain('"authorized_key:a" -> "authorized_key:b" [label="autorequire"];');
  });
});
