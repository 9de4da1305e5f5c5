// `govern test` for real: each test makes a sandbox with unshare, runs the tree in it three times
// and checks it, as root (docs/test.md). The host is read after each test: nothing it did inside
// is left outside.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { tree } from './support.js';

interface Verdict {
  host: string;
  passed: boolean;
  failures: { kind: string; message: string; resources?: string[] }[];
  checks: { name: string; where: string; passed: boolean; message: string }[];
  steps: { step: string; changed: string[]; applied: boolean }[];
  kept?: string;
}

const verdicts = (stdout: string) => (JSON.parse(stdout) as { passed: boolean; hosts: Verdict[] }).hosts;
const id = () => crypto.randomBytes(4).toString('hex');
const FILE = (p: string, contents: string) => `file "${p}" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n  contents = "${contents}\\n"\n}\n`;

describe('govern test', function () {
  this.timeout(300_000);

  it('passes a tree that converges, its checks passing, and leaves the host as it was', async () => {
    const n = id();
    const probe = `/etc/govern-sandbox-probe-${n}`;
    const t = tree({
      'main.hcl': FILE(probe, 'inside') + `exec "touch /var/tmp/govern-sandbox-${n}" {\n  creates = "/var/tmp/govern-sandbox-${n}"\n}\n`,
      'tests/files.hcl': `check "probe written" {\n  file = "${probe}"\n  contains = "inside"\n  mode = "0644"\n}\ncheck "stamp" {\n  command = "test -e /var/tmp/govern-sandbox-${n}"\n}\n`,
    });
    const r = await govern(['test', '--json', t]);
    expect(r.code, r.stderr + r.stdout).to.equal(0);
    const [v] = verdicts(r.stdout);
    expect(v.passed).to.equal(true);
    expect(v.steps.map((s) => [s.step, s.changed.length])).to.deep.equal([['noop', 2], ['run', 2], ['rerun', 0]]);
    expect(v.checks.map((c) => [c.name, c.where, c.passed])).to.deep.equal([['probe written', 'tests/files.hcl:1', true], ['stamp', 'tests/files.hcl:6', true]]);
    expect(fs.existsSync(probe), 'the host has the probe').to.equal(false);
    expect(fs.existsSync(`/var/tmp/govern-sandbox-${n}`)).to.equal(false);
  });

  it('fails a tree whose second run changes something, naming the resource, and text says so', async () => {
    const n = id();
    const t = tree({ 'main.hcl': `exec "stamp" {\n  command = "date >> /var/tmp/govern-sandbox-${n}"\n  provider = "shell"\n}\n` });
    const r = await govern(['test', t]);
    expect(r.code, r.stderr + r.stdout).to.equal(1);
    expect(r.stdout).to.match(/^FAILED: /m);
    expect(r.stdout).to.contain('idempotence: the second run changed 1 resource(s): exec:stamp');
    const j = await govern(['test', '--json', t]);
    const [v] = verdicts(j.stdout);
    expect(v.failures.map((f) => [f.kind, f.resources])).to.deep.equal([['idempotence', ['exec:stamp']]]);
    expect(fs.existsSync(`/var/tmp/govern-sandbox-${n}`)).to.equal(false);
  });

  it('fails a tree whose noop lies: a runner that predicts no change and then changes', async () => {
    const n = id();
    const t = tree({
      // The tree's own runner: in noop mode it says nothing would change; for real it creates the file once.
      'runners.d/liar': `#!/bin/sh\n[ "\${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\nf=/etc/govern-liar-${n}\nif [ -n "\${GOVERN_NOOP:-}" ] || [ -e "$f" ]; then echo "message=nothing to do"; exit 0; fi\necho made > "$f"\necho changed=true\necho message=made\n`,
      'main.hcl': `liar "x" {}\n`,
    });
    const r = await govern(['test', '--json', t]);
    expect(r.code, r.stderr + r.stdout).to.equal(1);
    const [v] = verdicts(r.stdout);
    expect(v.failures.map((f) => [f.kind, f.resources])).to.deep.equal([['noop-fidelity', ['liar:x']]]);
    expect(v.failures[0].message).to.contain('the run changed it, the noop said it would not');
    expect(fs.existsSync(`/etc/govern-liar-${n}`)).to.equal(false);
  });

  it('fails a tree with a failing resource, naming it and what it held back, and a failing check with its file:line', async () => {
    const t = tree({
      'main.hcl': `exec "/bin/false" {}\nexec "/bin/true" {\n  after = ["exec:/bin/false"]\n}\n`,
      'tests/a.hcl': `check "never" {\n  command = "exit 3"\n}\n`,
    });
    const r = await govern(['test', '--json', t]);
    expect(r.code, r.stderr + r.stdout).to.equal(1);
    const [v] = verdicts(r.stdout);
    const runs = v.failures.filter((f) => f.kind === 'run-failed');
    // The noop runs no command, so only the two real runs fail.
    expect(runs.map((f) => f.resources)).to.deep.equal([['exec:/bin/false'], ['exec:/bin/false']]);
    expect(runs[0].message).to.match(/^the first run: 1 resource\(s\) failed: exec:\/bin\/false \(.*main\.hcl:1\)/);
    expect(runs[0].message).to.contain('skipped after them: exec:/bin/true');
    expect(v.failures.filter((f) => f.kind === 'check-failed').map((f) => f.message)).to.deep.equal(['tests/a.hcl:1: check "never" failed: the command failed (exit 3)']);
  });

  it('keeps the files the sandbox changed with --keep, and says where', async () => {
    const n = id();
    const t = tree({ 'main.hcl': FILE(`/etc/govern-sandbox-kept-${n}`, 'kept') });
    const r = await govern(['test', '--keep', t]);
    expect(r.code, r.stderr + r.stdout).to.equal(0);
    const kept = /kept the files the sandbox changed in (\S+)/.exec(r.stdout)?.[1];
    expect(kept, r.stdout).to.be.a('string');
    try {
      expect(fs.readFileSync(path.join(kept!, 'etc', `govern-sandbox-kept-${n}`), 'utf8')).to.equal('kept\n');
      expect(fs.existsSync(`/etc/govern-sandbox-kept-${n}`)).to.equal(false);
    } finally {
      fs.rmSync(path.dirname(kept!), { recursive: true, force: true });
    }
  });

  it('writes JUnit XML that a JUnit parser reads: a suite per host, a failing case per failed property', async () => {
    const t = tree({
      'main.hcl': `exec "stamp" {\n  command = "date >> /var/tmp/govern-sandbox-junit"\n  provider = "shell"\n}\n`,
      'tests/a.hcl': `check "ok" {\n  command = "true"\n}\n`,
    });
    const junit = path.join(tempDir(), 'junit.xml');
    const r = await govern(['test', '--junit', junit, t]);
    expect(r.code, r.stderr + r.stdout).to.equal(1);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name) }).parse(fs.readFileSync(junit, 'utf8'));
    const suite = doc.testsuites.testsuite[0];
    expect(suite['@_failures']).to.equal('1');
    const cases = suite.testcase.map((c: { '@_name': string; failure?: { '@_type': string }[] }) => [c['@_name'], c.failure?.map((f) => f['@_type']) ?? []]);
    expect(cases).to.deep.equal([['runs', []], ['idempotence', ['idempotence']], ['noop fidelity', []], ['check ok', []]]);
  });

  it('tests each host of a snapshots directory with its own facts, and one with --host', async () => {
    const facts = tempDir();
    writeFile(path.join(facts, 'web1.json'), JSON.stringify({ role: 'web' }));
    writeFile(path.join(facts, 'db1.json'), JSON.stringify({ role: 'db' }));
    const n = id();
    const t = tree({
      'main.hcl': FILE(`/etc/govern-sandbox-role-${n}`, '{{fact "role"}}'),
      'tests/role.hcl': `check "a web server" {\n  file = "/etc/govern-sandbox-role-${n}"\n  contains = "web"\n}\n`,
    });
    const r = await govern(['test', '--json', '--facts', facts, t]);
    expect(r.code, r.stderr + r.stdout).to.equal(1);
    expect(verdicts(r.stdout).map((v) => [v.host, v.passed])).to.deep.equal([['db1', false], ['web1', true]]);
    const one = await govern(['test', '--json', '--facts', facts, '--host', 'web1', t]);
    expect(one.code, one.stderr + one.stdout).to.equal(0);
    expect(verdicts(one.stdout).map((v) => v.host)).to.deep.equal(['web1']);
  });

  it("refuses bad checks files, every problem with its file:line, before any sandbox", async () => {
    const t = tree({
      'main.hcl': '',
      'tests/a.hcl': `check "both" {\n  file = "/etc/x"\n  port = 80\n}\ncheck "port" {\n  port = "eighty"\n}\nresource "x" {}\n`,
      'tests/b.hcl': `check "none" {\n}\n`,
    });
    const r = await govern(['test', t]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('tests/a.hcl:1: check "both": has file and port');
    expect(r.stderr).to.contain('tests/a.hcl:6: check "port": port is a whole number');
    expect(r.stderr).to.contain('tests/a.hcl:8: only check "NAME" { ... } blocks go in tests/');
    expect(r.stderr).to.contain('tests/b.hcl:1: check "none": says nothing to check');
    expect(r.stdout).to.equal('');
  });

  it('refuses a --junit FILE in no directory and a missing --facts before any sandbox, in plain words', async () => {
    const t = tree({ 'main.hcl': '' });
    const junit = await govern(['test', '--junit', '/nonexistent-dir/x.xml', t]);
    expect(junit.code).to.equal(1);
    expect(junit.stderr).to.equal('govern: --junit /nonexistent-dir/x.xml: /nonexistent-dir is not a directory\n');
    expect(junit.stdout).to.equal('');
    const facts = await govern(['test', '--facts', 'no-such-snapshots/', t]);
    expect(facts.code).to.equal(1);
    expect(facts.stderr).to.equal('govern: cannot read the facts snapshots no-such-snapshots/: no such file or directory\n');
    expect(facts.stdout).to.equal('');
  });

  it("has loopback only, unless --network host gives it the host's network", async () => {
    const t = tree({ 'main.hcl': '', 'tests/net.hcl': `check "loopback only" {\n  command = "test $(ls /sys/class/net | wc -l) = 1 && test -e /sys/class/net/lo"\n}\ncheck "loopback up" {\n  command = "ip -o link show lo | grep -q UP"\n}\n` });
    const own = await govern(['test', '--json', t]);
    expect(own.code, own.stderr + own.stdout).to.equal(0);
    const host = await govern(['test', '--json', '--network', 'host', t]);
    expect(host.code).to.equal(1);
    expect(verdicts(host.stdout)[0].checks.map((c) => [c.name, c.passed])).to.deep.equal([['loopback only', false], ['loopback up', true]]);
  });

  it('reports the services that need systemd as could only noop, in text, JSON and JUnit (skipped), without failing', async () => {
    const n = id();
    const t = tree({
      'main.hcl':
        `service "govern-sd-${n}" {\n  provider = "systemd"\n  ensure = "running"\n}\n` +
        `unit "govern-unit-${n}.service" {\n  contents = "[Service]\\nExecStart=/bin/sleep 1000\\n"\n}\n` +
        `service "govern-unit-${n}" {\n  ensure = "running"\n}\n` +
        FILE(`/etc/govern-sandbox-sd-${n}`, 'tested'),
    });
    const junit = path.join(tempDir(), 'junit.xml');
    const r = await govern(['test', '--junit', junit, t]);
    expect(r.code, r.stderr + r.stdout).to.equal(0);
    expect(r.stdout).to.contain(`  could only noop: service:govern-sd-${n} (no systemd in the sandbox), service:govern-unit-${n} (no systemd in the sandbox)\n`);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(fs.readFileSync(junit, 'utf8'));
    const skipped = doc.testsuites.testsuite[0].testcase.filter((c: { skipped?: unknown }) => c.skipped !== undefined);
    expect(skipped.map((c: { '@_name': string; skipped: { '@_message': string } }) => [c['@_name'], c.skipped['@_message']])).to.deep.equal([
      [`service:govern-sd-${n}`, 'could only noop: no systemd in the sandbox'],
      [`service:govern-unit-${n}`, 'could only noop: no systemd in the sandbox'],
    ]);
    const j = await govern(['test', '--json', t]);
    const v = verdicts(j.stdout)[0] as Verdict & { couldOnlyNoop: { ref: string; why: string }[] };
    expect(v.couldOnlyNoop.map((c) => c.ref)).to.deep.equal([`service:govern-sd-${n}`, `service:govern-unit-${n}`]);
    // What the noop says of a service that needs systemd depends on the order it is checked in (--jobs): only the real runs are asserted.
    expect(v.steps.slice(1).map((s) => [s.step, s.changed.length])).to.deep.equal([['run', 2], ['rerun', 0]]);
  });

  it('exits 2 with --driver nspawn where systemd-nspawn cannot boot a container, saying why', async () => {
    const t = tree({ 'main.hcl': FILE('/etc/govern-sandbox-never', 'never') });
    const r = await govern(['test', '--driver', 'nspawn', t]);
    expect(r.code, r.stderr + r.stdout).to.equal(2);
    expect(r.stdout).to.match(/sandbox: cannot make the sandbox: --driver nspawn: (systemd-nspawn not found on PATH|systemd-nspawn boots a container only on a host whose init is systemd|booting a container is not built)/);
    expect(fs.existsSync('/etc/govern-sandbox-never')).to.equal(false);
  });

  it("decrypts the tree's secrets with --identity, as govern run does (examples/fleet's web1)", async () => {
    const fleet = path.resolve('examples/fleet');
    const args = ['test', '--json', '--facts', path.join(fleet, 'snapshots'), '--host', 'web1'];
    const without = verdicts((await govern([...args, fleet])).stdout)[0];
    expect(without.failures[0].message).to.contain('cannot decrypt with the identity');
    const missing = await govern([...args, '--identity', path.join(fleet, 'no-such-key'), fleet]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain('no-such-key: no such file');
    const r = await govern([...args, '--identity', path.join(fleet, 'test-keys', 'web1.TEST-ONLY.ssh_host_ed25519_key'), fleet]);
    const v = verdicts(r.stdout)[0];
    // Loopback only: nginx cannot come from a mirror, but every run plans, its secrets decrypted.
    expect(v.steps.map((s) => [s.step, s.applied]), r.stdout).to.deep.equal([['noop', true], ['run', true], ['rerun', true]]);
    expect(r.stdout).to.not.contain('cannot decrypt');
  });

  it('exits 2 when the sandbox cannot be made: no unshare on PATH', async () => {
    const bin = tempDir();
    // Everything govern test needs but unshare.
    for (const program of ['mount', 'chroot', 'setpriv', 'env']) {
      const found = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'].map((d) => path.join(d, program)).find((f) => fs.existsSync(f));
      if (found) fs.symlinkSync(found, path.join(bin, program));
    }
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const t = tree({ 'main.hcl': FILE('/etc/govern-sandbox-never', 'never') });
    const r = await govern(['test', t], { env: { PATH: bin } });
    expect(r.code, r.stderr + r.stdout).to.equal(2);
    expect(r.stdout).to.contain('sandbox: cannot make the sandbox: unshare not found on PATH');
    expect(fs.existsSync('/etc/govern-sandbox-never')).to.equal(false);
  });
});
