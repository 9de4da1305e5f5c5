// Symbolic links through `govern run` and the real file runner, in both runner modes: created,
// kept, retargeted atomically, removed without touching their targets, and refused over a file or
// directory unless forced; a parent directory that is a link root made is followed (docs/file.md). Then the
// disk's faults: a full file system (a real tmpfs) and temporary files a killed run left.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

interface Tree {
  dir: string;
  file: string;
  write(hcl: string): void;
  run(extra?: string[]): Promise<{ code: number | null; report: RunReport; stderr: string }>;
}

function tree(mode: string): Tree {
  const dir = tempDir('govern-file-links-');
  const file = path.join(dir, 'states', 'links.hcl');
  return {
    dir,
    file,
    write: (hcl) => writeFile(file, hcl),
    async run(extra = []) {
      const r = await govern(['run', file, '--json', '--runner-mode', mode, ...extra]);
      try {
        return { code: r.code, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
      } catch {
        throw new Error(`govern run --json printed no report (exit ${r.code}): ${r.stdout}${r.stderr}`);
      }
    },
  };
}

const link = (at: string, target: string, extra = '') => `file "${at}" {\n  ensure = "link"\n  target = "${target}"\n${extra}}\n`;

describe('govern run with file links', function () {
  this.timeout(120_000);

  for (const mode of ['persistent', 'oneshot']) {
    describe(`${mode} runners`, () => {
      it('creates links (relative and absolute), keeps them on the second run, and retargets one atomically, with noop first', async () => {
        const t = tree(mode);
        writeFile(path.join(t.dir, 'v1', 'app'), 'one\n');
        writeFile(path.join(t.dir, 'v2', 'app'), 'two\n');
        t.write(link(`${t.dir}/current`, 'v1') + link(`${t.dir}/absolute`, `${t.dir}/v1/app`));
        const first = await t.run();
        expect(first.code, first.stderr).to.equal(0);
        expect(first.report.resources.map((r) => r.message)).to.deep.equal(['created symbolic link to v1', `created symbolic link to ${t.dir}/v1/app`]);
        expect(fs.readlinkSync(`${t.dir}/current`)).to.equal('v1');
        expect(fs.readFileSync(`${t.dir}/current/app`, 'utf8')).to.equal('one\n');
        expect(fs.readlinkSync(`${t.dir}/absolute`)).to.equal(`${t.dir}/v1/app`);

        const second = await t.run();
        expect(second.report.summary).to.include({ changed: 0, unchanged: 2 });

        t.write(link(`${t.dir}/current`, 'v2') + link(`${t.dir}/absolute`, `${t.dir}/v1/app`));
        const noop = await t.run(['--noop']);
        expect(noop.report.resources[0].message).to.equal('Would have changed target v1 -> v2');
        expect(fs.readlinkSync(`${t.dir}/current`)).to.equal('v1');
        const third = await t.run();
        expect(third.code).to.equal(0);
        expect(third.report.resources[0].message).to.equal('changed target v1 -> v2');
        expect(fs.readFileSync(`${t.dir}/current/app`, 'utf8')).to.equal('two\n');
        expect(fs.readdirSync(t.dir).filter((name) => name.includes('.govern-'))).to.deep.equal([]);
      });

      it('absent removes a link and never its target, a file or a directory', async () => {
        const t = tree(mode);
        writeFile(path.join(t.dir, 'data', 'keep'), 'precious\n');
        fs.symlinkSync(path.join(t.dir, 'data', 'keep'), path.join(t.dir, 'to-file'));
        fs.symlinkSync(path.join(t.dir, 'data'), path.join(t.dir, 'to-dir'));
        t.write(`file "${t.dir}/to-file" {\n  ensure = "absent"\n}\nfile "${t.dir}/to-dir" {\n  ensure = "absent"\n  force = true\n}\n`);
        const r = await t.run();
        expect(r.code, r.stderr).to.equal(0);
        expect(r.report.resources.map((x) => x.message)).to.deep.equal([
          `removed the symbolic link (to ${t.dir}/data/keep)`,
          `removed the symbolic link (to ${t.dir}/data)`,
        ]);
        expect(fs.existsSync(path.join(t.dir, 'to-file')) || fs.existsSync(path.join(t.dir, 'to-dir'))).to.equal(false);
        expect(fs.readFileSync(path.join(t.dir, 'data', 'keep'), 'utf8')).to.equal('precious\n');
      });

      it('replaces a file or a directory with a link only with force', async () => {
        const t = tree(mode);
        writeFile(path.join(t.dir, 'plain'), 'a file\n');
        writeFile(path.join(t.dir, 'full', 'inside'), 'x\n');
        t.write(link(`${t.dir}/plain`, '/etc/hostname') + link(`${t.dir}/full`, '/etc'));
        const refused = await t.run();
        expect(refused.code).to.equal(1);
        expect(refused.report.resources.map((x) => x.message)).to.deep.equal([
          `${t.dir}/plain is a regular file; set force = true to replace it with a symbolic link`,
          `${t.dir}/full is a directory; set force = true to replace it (and everything in it) with a symbolic link`,
        ]);
        expect(fs.readFileSync(path.join(t.dir, 'plain'), 'utf8')).to.equal('a file\n');
        expect(fs.existsSync(path.join(t.dir, 'full', 'inside'))).to.equal(true);

        t.write(link(`${t.dir}/plain`, '/etc/hostname', '  force = true\n') + link(`${t.dir}/full`, '/etc', '  force = true\n'));
        const forced = await t.run();
        expect(forced.code, forced.stderr).to.equal(0);
        expect([fs.readlinkSync(path.join(t.dir, 'plain')), fs.readlinkSync(path.join(t.dir, 'full'))]).to.deep.equal(['/etc/hostname', '/etc']);
        expect(fs.existsSync('/etc/hostname')).to.equal(true);
      });

      it("sets a link's own owner and group, never its target's", async () => {
        const t = tree(mode);
        writeFile(path.join(t.dir, 'target'), 'x\n');
        t.write(link(`${t.dir}/owned`, 'target', '  owner = "nobody"\n  group = "nogroup"\n'));
        const r = await t.run();
        expect(r.code, r.stderr).to.equal(0);
        const own = fs.lstatSync(path.join(t.dir, 'owned'));
        const target = fs.statSync(path.join(t.dir, 'owned'));
        expect(own.uid).to.not.equal(0);
        expect(own.gid).to.not.equal(0);
        expect([target.uid, target.gid]).to.deep.equal([0, 0]);
        expect((await t.run()).report.summary).to.include({ changed: 0, unchanged: 1 });
      });
    });
  }

  it('refuses a link without target, or with a mode (which a link has not), before applying anything; a target on ensure = "absent" is left out, as every present-only key is', async () => {
    const t = tree('persistent');
    t.write(
      `file "${t.dir}/first" {\n  ensure = "directory"\n  owner = "root"\n  group = "root"\n  mode = "0755"\n}\n` +
        `file "${t.dir}/l" {\n  ensure = "link"\n}\n` +
        `file "${t.dir}/m" {\n  ensure = "link"\n  target = "x"\n  mode = "0644"\n}\n` +
        `file "${t.dir}/p" {\n  ensure = "absent"\n  target = "x"\n}\n`,
    );
    const r = await govern(['run', t.file]);
    expect(r.code).to.equal(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(new RegExp(`^govern: ${t.file}:7: file:${t.dir}/l: .*target`));
    expect(lines[1]).to.match(new RegExp(`^govern: ${t.file}:13: file:${t.dir}/m: .*mode`));
    expect(fs.existsSync(`${t.dir}/first`)).to.equal(false);
  });

  it('follows a parent directory that is a link, as Puppet does', async () => {
    const t = tree('persistent');
    fs.mkdirSync(path.join(t.dir, 'real'));
    fs.symlinkSync(path.join(t.dir, 'real'), path.join(t.dir, 'via'));
    t.write(`file "${t.dir}/via/conf" {\n  ensure = "present"\n  contents = "through the link\\n"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(t.dir, 'real', 'conf'), 'utf8')).to.equal('through the link\n');
    expect(fs.lstatSync(path.join(t.dir, 'via')).isSymbolicLink()).to.equal(true);
  });
});

describe('file runner on a full disk, and what a killed run left', function () {
  this.timeout(60_000);
  let mountpoint: string;

  before(() => {
    // Not a tempDir: those are removed after each test, and a mount point is busy until after().
    mountpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-file-full-'));
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountpoint]);
    expect(r.status, String(r.stderr)).to.equal(0);
  });
  after(() => {
    spawnSync('umount', [mountpoint]);
    fs.rmdirSync(mountpoint);
  });

  it('a write that fills the disk fails clearly, leaves the old file intact and no temporary file', async () => {
    const file = path.join(mountpoint, 'app.conf');
    fs.writeFileSync(file, 'old\n');
    const big = 'x'.repeat(512 * 1024);
    const states = tempDir('govern-file-full-states-');
    writeFile(path.join(states, 'a.hcl'), `file "${file}" {\n  ensure = "present"\n  contents = "${big}"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    const r = await govern(['run', states, '--json']);
    expect(r.code).to.equal(1);
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.resources[0].message).to.equal(`cannot write ${file}: no space left on the device (ENOSPC); the old content is unchanged and the temporary file was removed`);
    expect(fs.readFileSync(file, 'utf8')).to.equal('old\n');
    expect(fs.readdirSync(mountpoint)).to.deep.equal(['app.conf']);
  });

  it("removes a killed run's temporary entries of the same path when it writes it, and nothing else", async () => {
    const dir = tempDir('govern-file-stale-');
    const file = path.join(dir, 'app.conf');
    const stale = path.join(dir, '.app.conf.govern-0123456789abcdef');
    const fresh = path.join(dir, '.app.conf.govern-fedcba9876543210');
    const other = path.join(dir, '.other.conf.govern-0123456789abcdef');
    for (const p of [stale, fresh, other]) fs.writeFileSync(p, 'partial');
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, hourAgo, hourAgo);
    fs.utimesSync(other, hourAgo, hourAgo);
    const states = tempDir('govern-file-stale-states-');
    writeFile(path.join(states, 'a.hcl'), `file "${file}" {\n  ensure = "present"\n  contents = "new\\n"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    const r = await govern(['run', states]);
    expect(r.code, r.stderr).to.equal(0);
    expect(fs.readdirSync(dir).sort()).to.deep.equal(['.app.conf.govern-fedcba9876543210', '.other.conf.govern-0123456789abcdef', 'app.conf']);
  });
});
