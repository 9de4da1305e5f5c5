// The sandbox's promise: whatever the tree does inside (a file under /etc, a user, a package from a
// local repository, /etc/fstab edited and a tmpfs mounted, a daemon started), the host's files,
// accounts, packages, mounts and processes are as they were, and the daemon is gone with the sandbox.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { processesWith } from './support.js';

async function dpkgKnows(name: string): Promise<boolean> {
  return (await runCommand('dpkg-query', ['-W', '--', name])).code === 0;
}

describe('govern test: the sandbox', function () {
  this.timeout(300_000);

  it('changes nothing of the host: files, accounts, packages, fstab, mounts, processes', async () => {
    const n = crypto.randomBytes(4).toString('hex');
    const dir = tempDir();
    // apt reads the repository as its _apt user; the tree is shown read-only at its path inside.
    fs.chmodSync(dir, 0o755);
    const name = `govern-sandbox-${n}`;
    const repo = path.join(dir, 'repo');
    const build = path.join(tempDir(), 'pkg');
    writeFile(path.join(build, 'DEBIAN', 'control'), `Package: ${name}\nVersion: 1.0-1\nArchitecture: all\nMaintainer: govern tests <root@localhost>\nDescription: govern test package\n`);
    writeFile(path.join(build, 'usr', 'share', name, 'version'), '1.0-1\n');
    fs.mkdirSync(repo);
    expect((await runCommand('dpkg-deb', ['--root-owner-group', '--build', build, path.join(repo, `${name}_1.0-1_all.deb`)])).code).to.equal(0);
    const index = await runCommand('dpkg-scanpackages', ['--multiversion', '.', '/dev/null'], { cwd: repo });
    fs.writeFileSync(path.join(repo, 'Packages'), index.stdout);
    const list = `/etc/apt/sources.list.d/${name}.list`;
    const marker = `0.${parseInt(n, 16)}`;
    const user = `gs${n}`;
    const mnt = `/mnt/${name}`;
    writeFile(
      path.join(dir, 'main.hcl'),
      `file "/etc/${name}" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n  contents = "inside\\n"\n}\n` +
        `user "${user}" {\n  ensure = "present"\n}\n` +
        `file "${list}" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n  contents = "deb [trusted=yes] file:${repo} ./\\n"\n}\n` +
        `exec "apt-get update" {\n  command = "apt-get update -q -o Dir::Etc::sourcelist=${list} -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0 && touch /var/lib/apt/${name}"\n  provider = "shell"\n  creates = "/var/lib/apt/${name}"\n  after = ["file:${list}"]\n}\n` +
        `pkg "${name}" {\n  ensure = "present"\n  after = ["exec:apt-get update"]\n}\n` +
        `line "fstab note" {\n  path = "/etc/fstab"\n  line = "# ${name}"\n}\n` +
        `file "${mnt}" {\n  ensure = "directory"\n  owner = "root"\n  group = "root"\n  mode = "0755"\n}\n` +
        `mount "${mnt}" {\n  device = "tmpfs"\n  fstype = "tmpfs"\n  options = "mode=0755"\n  after = ["line:fstab note"]\n}\n` +
        // A daemon: its own session, not the run's process group; the sandbox's end ends it.
        `exec "daemon" {\n  command = "setsid -f /bin/sleep 86400 ${marker} && touch /run/${name}"\n  provider = "shell"\n  creates = "/run/${name}"\n}\n`,
    );
    writeFile(
      path.join(dir, 'tests', 'inside.hcl'),
      `check "file" {\n  file = "/etc/${name}"\n  contains = "inside"\n}\n` +
        `check "user" {\n  command = "getent passwd ${user}"\n}\n` +
        `check "package" {\n  package = "${name}"\n  version = "1.0-1"\n}\n` +
        `check "fstab" {\n  file = "/etc/fstab"\n  contains = "${mnt}"\n}\n` +
        `check "mounted" {\n  command = "grep -q ' ${mnt} ' /proc/self/mountinfo"\n}\n` +
        `check "daemon" {\n  command = "pgrep -f '^/bin/sleep 86400 ${marker}$'"\n}\n`,
    );
    const fstab = fs.readFileSync('/etc/fstab', 'utf8');
    const r = await govern(['test', '--json', dir]);
    // A fresh host's noop cannot know the package: its source is added by the same run.
    expect(r.code, r.stderr + r.stdout).to.equal(1);
    const [v] = (JSON.parse(r.stdout) as { hosts: { failures: { kind: string; resources?: string[] }[]; checks: { name: string; passed: boolean }[] }[] }).hosts;
    expect(v.failures.map((f) => [f.kind, f.resources]), r.stdout).to.deep.equal([['noop-fidelity', [`pkg:${name}`]]]);
    expect(v.checks.map((c) => [c.name, c.passed])).to.deep.equal(['file', 'user', 'package', 'fstab', 'mounted', 'daemon'].map((c) => [c, true]));
    // The host, after: none of it.
    expect(fs.existsSync(`/etc/${name}`)).to.equal(false);
    expect(fs.existsSync(list)).to.equal(false);
    expect(fs.readFileSync('/etc/passwd', 'utf8')).to.not.match(new RegExp(`^${user}:`, 'm'));
    expect(await dpkgKnows(name)).to.equal(false);
    expect(fs.readFileSync('/etc/fstab', 'utf8')).to.equal(fstab);
    expect(fs.readFileSync('/proc/self/mountinfo', 'utf8')).to.not.contain(name);
    expect(fs.existsSync(mnt)).to.equal(false);
    expect(processesWith(marker)).to.deep.equal([]);
  });
});
