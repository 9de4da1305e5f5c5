// `govern pull`: state trees from git, with signatures checked against allowed signers; DIR is
// switched atomically and never changes on a refusal or a failed fetch; runs record the commit.
import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_LOCK_NAME } from '../../src/lock/run-lock.js';
import type { RunReport } from '../../src/report/types.js';
import { govern } from '../support/cli.js';
import { until } from '../support/proc.js';
import { startSshLab } from '../support/sshd.js';
import { TEST_LOCK_DIR } from '../support/suite-dirs.js';
import { tempDir } from '../support/tmp.js';
import { gitLab, type GitLab } from './git-lab.js';

const stateFile = (marker: string) => `file "${marker}" {\n  ensure = "present"\n  contents = "x"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`;

describe('govern pull', function () {
  this.timeout(120_000);
  let lab: GitLab;
  let varDir: string;
  let dir: string;
  beforeEach(async () => {
    lab = await gitLab();
    const place = tempDir('govern-fleet-pull-');
    varDir = path.join(place, 'var');
    dir = path.join(place, 'states');
  });

  const pull = (extra: string[] = [], repo = lab.bare, env: NodeJS.ProcessEnv = {}) => govern(['pull', '--var-dir', varDir, ...extra, repo, dir], { env });
  const signedPull = (extra: string[] = []) => pull(['--allowed-signers', lab.allowedSigners, ...extra]);
  const content = () => fs.readFileSync(path.join(dir, 'a.hcl'), 'utf8');

  it('accepts a commit signed by an allowed key, prints old and new, and govern run records the commit', async () => {
    const first = await lab.commit({ 'a.hcl': stateFile('/tmp/one') }, 'trusted');
    const r = await signedPull();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(`${dir}: none -> ${first} (signed by ops@example.org)\n`);
    expect(content()).to.equal(stateFile('/tmp/one'));
    const second = await lab.commit({ 'a.hcl': stateFile('/tmp/two') }, 'trusted');
    const again = await signedPull();
    expect(again.stdout).to.equal(`${dir}: ${first} -> ${second} (signed by ops@example.org)\n`);
    expect(content()).to.equal(stateFile('/tmp/two'));
    expect((await signedPull()).stdout).to.equal(`${dir}: already at ${second} (signed by ops@example.org)\n`);

    const run = await govern(['run', dir, '--noop', '--json', '--var-dir', varDir]);
    const report = JSON.parse(run.stdout) as RunReport;
    expect(report.state).to.equal(dir);
    expect(report.commit).to.equal(second);
    // A pulled tree's places are said by the path in the repository; the commit is a field of the report (report/json.ts).
    expect(report.resources[0].where).to.equal('a.hcl:1');
  });

  for (const [signer, why] of [
    ['unsigned', 'it is not signed'],
    ['stranger', 'it is signed by a key that is not in the allowed signers file'],
    ['tampered', 'its signature is bad'],
  ] as const) {
    it(`refuses a commit that is ${signer === 'tampered' ? 'badly signed' : signer === 'stranger' ? 'signed by an unknown key' : 'unsigned'}: exit 1, DIR unchanged`, async () => {
      const good = await lab.commit({ 'a.hcl': stateFile('/tmp/good') }, 'trusted');
      expect((await signedPull()).code).to.equal(0);
      const bad =
        signer === 'tampered'
          ? await lab.tampered(await lab.commit({ 'a.hcl': stateFile('/tmp/evil') }, 'trusted'))
          : await lab.commit({ 'a.hcl': stateFile('/tmp/evil') }, signer);
      const r = await signedPull();
      expect(r.code).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.equal(`govern: refusing commit ${bad} of ${lab.bare}: ${why}${why.endsWith('bad') ? ' (the commit or the signature was altered)' : ''} (allowed signers: ${lab.allowedSigners}); ${dir} stays at ${good}\n`);
      expect(content()).to.equal(stateFile('/tmp/good'));
      const run = JSON.parse((await govern(['run', dir, '--noop', '--json'])).stdout) as RunReport;
      expect(run.commit).to.equal(good);
    });
  }

  it('without --allowed-signers, takes any commit; --ref picks a branch', async () => {
    await lab.commit({ 'a.hcl': stateFile('/tmp/main') }, 'unsigned');
    const other = await lab.commit({ 'a.hcl': stateFile('/tmp/other') }, 'unsigned', 'other');
    const r = await pull(['--ref', 'other']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(`${dir}: none -> ${other}\n`);
    expect(content()).to.equal(stateFile('/tmp/other'));
  });

  it('a fetch that fails leaves DIR as it was and exits 1', async () => {
    const good = await lab.commit({ 'a.hcl': stateFile('/tmp/good') }, 'unsigned');
    expect((await pull()).code).to.equal(0);
    fs.rmSync(lab.bare, { recursive: true });
    const r = await pull();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`^govern: cannot fetch the default branch from ${lab.bare}: git fetch exit 128: .*; ${dir} stays at ${good}\\n$`));
    expect(content()).to.equal(stateFile('/tmp/good'));
    const missingRef = await pull(['--ref', 'nope'], path.join(lab.work, '.git'));
    expect(missingRef.code).to.equal(1);
    expect(content()).to.equal(stateFile('/tmp/good'));
  });

  it('refuses to replace a directory it did not make, and a --ref that is an option', async () => {
    await lab.commit({ 'a.hcl': stateFile('/tmp/x') }, 'unsigned');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'mine.hcl'), 'kept');
    const r = await pull();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`${dir} exists and is not a tree govern pull made here`);
    expect(fs.readdirSync(dir)).to.deep.equal(['mine.hcl']);
    const option = await pull(['--ref', '--upload-pack=touch /tmp/x']);
    expect(option.code).to.equal(1);
    expect(option.stderr).to.include('--ref must be a branch or tag name');
  });

  it('refuses a repository on this host another user owns, though safe.directory lets git in; hooks of its own store never run', async () => {
    await lab.commit({ 'a.hcl': stateFile('/tmp/x') }, 'unsigned');
    const safeEverywhere = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };
    fs.chmodSync(lab.dir, 0o755);
    execFileSync('chown', ['-R', 'nobody', lab.bare]);
    for (const repo of [lab.bare, `file://${lab.bare}`]) {
      const r = await pull([], repo, safeEverywhere);
      expect(r.code, r.stderr).to.equal(1);
      expect(r.stderr).to.match(new RegExp(`^govern: REPO ${repo}: ${lab.bare} is owned by uid \\d+, not by root: git would run what its configuration and hooks name as root; serve it over ssh:// or https://, or let root own it\\n`));
      expect(fs.existsSync(dir)).to.equal(false);
    }
    execFileSync('chown', ['-R', 'root', lab.bare]);
    expect((await pull()).code).to.equal(0);
    const marker = path.join(lab.dir, 'hook-ran');
    const store = fs.readdirSync(path.join(varDir, 'pull')).map((s) => path.join(varDir, 'pull', s, 'repo.git'))[0];
    for (const hook of ['reference-transaction', 'post-checkout']) fs.writeFileSync(path.join(store, 'hooks', hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    await lab.commit({ 'a.hcl': stateFile('/tmp/y') }, 'unsigned');
    const again = await pull();
    expect(again.code, again.stderr).to.equal(0);
    expect(fs.existsSync(marker)).to.equal(false);
  });

  it('switches atomically: a reader that resolves DIR once never sees files of two commits', async () => {
    const pair = (v: string) => ({ 'a.hcl': `# ${v}\n`, 'b.hcl': `# ${v}\n`, [`only-${v}.hcl`]: `# ${v}\n` });
    await lab.commit(pair('v1'), 'unsigned', 'v1');
    await lab.commit(pair('v2'), 'unsigned', 'v2');
    expect((await pull(['--ref', 'v1'])).code).to.equal(0);
    const stop = path.join(tempDir(), 'stop');
    // A separate process, as a run would be: it holds the run lock (so a pull leaves the old trees
    // in place, as for a run under way), resolves DIR, then reads every file of the tree.
    const reader = spawn('flock', [path.join(TEST_LOCK_DIR, RUN_LOCK_NAME), process.execPath, '-e', `
      const fs = require('fs'), path = require('path');
      const seen = { v1: 0, v2: 0 }, bad = [];
      while (!fs.existsSync(${JSON.stringify(stop)})) {
        let real;
        try { real = fs.realpathSync(${JSON.stringify(dir)}); } catch (e) { bad.push('DIR missing: ' + e.code); continue; }
        const names = fs.readdirSync(real).sort();
        const versions = new Set(names.map((n) => fs.readFileSync(path.join(real, n), 'utf8').trim().slice(2)));
        if (versions.size !== 1 || names.length !== 3) bad.push(names.join(',') + ' ' + [...versions].join(','));
        else seen[[...versions][0]]++;
      }
      process.stdout.write(JSON.stringify({ seen, bad: bad.slice(0, 5) }));
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    reader.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const done = new Promise((resolve) => reader.on('close', resolve));
    try {
      for (let i = 0; i < 6; i++) {
        const r = await pull(['--ref', i % 2 === 0 ? 'v2' : 'v1', '--allow-rollback']);
        expect(r.code, r.stderr).to.equal(0);
        await sleep(50);
      }
    } finally {
      fs.writeFileSync(stop, '');
      await done;
    }
    const result = JSON.parse(out) as { seen: Record<string, number>; bad: string[] };
    expect(result.bad).to.deep.equal([]);
    expect(result.seen.v1).to.be.above(0);
    expect(result.seen.v2).to.be.above(0);
  });

  it('a run under way keeps its commit while a pull switches DIR; the next pull removes the old tree', async () => {
    // The resource says when it has started, and waits until the test has pulled the next commit.
    const marks = tempDir('govern-pull-marks-');
    const [started, release] = [path.join(marks, 'started'), path.join(marks, 'release')];
    const slow = `#!/bin/sh\n[ -n "\${GOVERN_NOOP:-}" ] || { : > ${started}; while [ ! -e ${release} ]; do sleep 0.05; done; }\n[ -f "$GOVERN_STATE_DIR/a.hcl" ] && echo "message=still there $(cat "$GOVERN_STATE_DIR/a.hcl")"\n`;
    const first = await lab.commit({ 'a.hcl': 'slow "x" {}\n# one\n', 'runners.d/slow': slow }, 'unsigned');
    expect((await pull()).code).to.equal(0);
    const running = govern(['run', dir, '--json', '--var-dir', varDir]);
    let second: string;
    let during: Awaited<ReturnType<typeof pull>>;
    try {
      await until('the run\'s resource to start', () => fs.existsSync(started));
      second = await lab.commit({ 'a.hcl': 'slow "x" {}\n# two\n', 'runners.d/slow': slow }, 'unsigned');
      during = await pull();
    } finally {
      fs.writeFileSync(release, '');
    }
    expect(during.stdout).to.equal(`${dir}: ${first} -> ${second}\n`);
    const report = JSON.parse((await running).stdout) as RunReport;
    expect(report.commit).to.equal(first);
    expect(report.resources[0].message).to.equal('still there slow "x" {}');
    const trees = () => fs.readdirSync(path.dirname(fs.realpathSync(dir)));
    expect(trees().sort(), 'the run kept the old tree').to.deep.equal([first, second].sort());
    expect((await pull()).stdout).to.equal(`${dir}: already at ${second}\n`);
    expect(trees()).to.deep.equal([second]);
    const status = await govern(['status', '--var-dir', varDir]);
    expect(status.stdout).to.include(`; ${dir} at ${first.slice(0, 12)} | `);
  });

  it('pulls over ssh:// from a real sshd on 127.0.0.1', async () => {
    const ssh = await startSshLab([{ name: 'gitserver' }]);
    try {
      const commit = await lab.commit({ 'a.hcl': stateFile('/tmp/over-ssh') }, 'trusted');
      const r = await pull(['--allowed-signers', lab.allowedSigners], `ssh://gitserver${lab.bare}`, { GIT_SSH_COMMAND: ssh.ssh });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal(`${dir}: none -> ${commit} (signed by ops@example.org)\n`);
      expect(content()).to.equal(stateFile('/tmp/over-ssh'));
    } finally {
      await ssh.stop();
    }
  });
});
