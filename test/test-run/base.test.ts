// govern test over a clean machine: --make-base makes a Debian 12 root with debootstrap from the
// mirror of this host's apt sources (once for the suite, cached), --base runs the sandbox over it.
// Skipped, saying why, only where Debian's mirror cannot be reached.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN, govern } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { debianBase, DEBIAN_BASE, tree } from './support.js';

const STAMP = '.govern-base.json';

describe('govern test --make-base #once', function () {
  this.timeout(3_600_000);

  it('makes a Debian 12 root with debootstrap, and a second call reuses it as it is', async function () {
    const base = await debianBase();
    if ('skip' in base) return (this.test!.title += ` (skipped: ${base.skip})`), this.skip();
    const stamp = fs.readFileSync(path.join(DEBIAN_BASE, STAMP), 'utf8');
    expect(JSON.parse(stamp)).to.include({ suite: 'debian:12', codename: 'bookworm', variant: 'minbase' });
    expect(fs.readFileSync(path.join(DEBIAN_BASE, 'etc', 'os-release'), 'utf8')).to.contain('VERSION_CODENAME=bookworm');
    const again = await govern(['test', '--make-base', 'debian:12', DEBIAN_BASE]);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.match(new RegExp(`^reused the base debian:12 in ${DEBIAN_BASE}, made .* \\(remove ${DEBIAN_BASE} to make it anew\\)\\n$`));
    expect(fs.readFileSync(path.join(DEBIAN_BASE, STAMP), 'utf8')).to.equal(stamp);
  });

  it('exits 2 saying why when the mirror cannot be reached, and leaves nothing in DIR', async () => {
    const parent = tempDir();
    const dir = path.join(parent, 'base');
    // A network namespace of its own: no mirror is reachable from it.
    const r = await runCommand('unshare', ['--net', '--', GOVERN, 'test', '--make-base', 'debian:12', dir], { timeoutMs: 600_000 });
    expect(r.code, r.stderr + r.stdout).to.equal(2);
    expect(r.stderr).to.match(/^govern test: cannot make the base: debootstrap bookworm from \S+ failed \(exit \d+; is the mirror reachable\?\)/);
    expect(fs.readdirSync(parent)).to.deep.equal([]);
  });

  it('refuses an unknown suite, and a DIR that is not a base it made, changing nothing', async () => {
    const unknown = await govern(['test', '--make-base', 'ubuntu:24.04', tempDir()]);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('--make-base ubuntu:24.04: not a suite govern knows (debian:11, debian:12, debian:13)');
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'mine'), 'mine\n');
    const r = await govern(['test', '--make-base', 'debian:12', dir]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${dir} is not empty and is not a base govern test made (no ${STAMP}): it is never replaced`);
    expect(fs.readdirSync(dir)).to.deep.equal(['mine']);
  });
});

describe('govern test --base', function () {
  this.timeout(3_600_000);
  let base: string | undefined;
  let skip: string | undefined;

  before(async () => {
    const found = await debianBase();
    if ('dir' in found) base = found.dir;
    else skip = found.skip;
  });

  it("runs a tree over the base: the base's files, not the host's, and neither changes", async function () {
    // The reason shows in the test's title: mocha's skip takes none.
    if (base === undefined) return (this.test!.title += ` (skipped: ${skip})`), this.skip();
    const n = crypto.randomBytes(4).toString('hex');
    const probe = `/etc/govern-base-probe-${n}`;
    const t = tree({
      'main.hcl': `file "${probe}" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n  contents = "over the base\\n"\n}\n`,
      'tests/base.hcl':
        `check "debian 12" {\n  file = "/etc/os-release"\n  contains = "VERSION_CODENAME=bookworm"\n}\n` +
        // The host has git (the suite drives it); a minbase Debian does not.
        `check "not the host" {\n  command = "! command -v git"\n}\n` +
        `check "probe" {\n  file = "${probe}"\n  contains = "over the base"\n}\n`,
    });
    const stamp = fs.readFileSync(path.join(base, STAMP), 'utf8');
    const r = await govern(['test', '--json', '--base', base, t]);
    expect(r.code, r.stderr + r.stdout).to.equal(0);
    const [v] = (JSON.parse(r.stdout) as { hosts: { checks: { name: string; passed: boolean }[]; steps: { step: string; changed: string[] }[] }[] }).hosts;
    expect(v.checks.map((c) => [c.name, c.passed])).to.deep.equal([['debian 12', true], ['not the host', true], ['probe', true]]);
    expect(v.steps.map((s) => [s.step, s.changed])).to.deep.equal([['noop', [`file:${probe}`]], ['run', [`file:${probe}`]], ['rerun', []]]);
    expect(fs.existsSync(probe)).to.equal(false);
    expect(fs.existsSync(path.join(base, probe))).to.equal(false);
    expect(fs.readFileSync(path.join(base, STAMP), 'utf8')).to.equal(stamp);
  });

  it('exits 2 for a base that is not one: missing, not a root file system, not root\'s', async () => {
    const t = tree({ 'main.hcl': '' });
    const empty = tempDir();
    fs.chmodSync(empty, 0o755);
    const other = tempDir();
    fs.mkdirSync(path.join(other, 'usr', 'bin'), { recursive: true });
    fs.mkdirSync(path.join(other, 'etc'));
    fs.chmodSync(other, 0o755);
    fs.chownSync(other, 1234, 1234);
    for (const [dir, why] of [
      [path.join(empty, 'none'), 'no such directory'],
      [empty, 'does not look like a root file system: no /usr/bin, /etc'],
      [other, 'owned by uid 1234, not root'],
    ]) {
      const r = await govern(['test', '--base', dir, t]);
      expect(r.code, r.stderr + r.stdout).to.equal(2);
      expect(r.stdout).to.contain(`sandbox: cannot make the sandbox: --base ${dir}: ${why}`);
    }
  });
});
