// Symbolic links on the way to a managed path, through `govern run` and the real runners, in both
// runner modes: a link another user (the real `nobody`) planted, or a user's directory swapped for a
// link, never redirects where root writes, reads a `source` or looks for `creates`; links root made
// (as /var/run -> /run) keep working. The links are made by `nobody` itself, through su.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const NOBODY = 65534;

function asNobody(script: string): void {
  const r = spawnSync('su', ['-s', '/bin/sh', 'nobody', '-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`su nobody -c ${script}: exit ${r.status}: ${r.stderr}`);
}

const file = (at: string, extra = '') => `file "${at}" {\n  ensure = "present"\n  contents = "pwned"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n${extra}}\n`;

interface Setup {
  /** Traversable by everyone, owned by root. */
  dir: string;
  /** Root's, 0755: stands for /etc, where a redirected write would land. */
  etc: string;
  run(hcl: string, extra?: string[], runnerMode?: string): Promise<{ code: number | null; report: RunReport; stderr: string }>;
}

function setup(mode: string): Setup {
  const dir = tempDir('govern-chase-');
  fs.chmodSync(dir, 0o755);
  const etc = path.join(dir, 'etc');
  fs.mkdirSync(etc, { mode: 0o755 });
  const states = path.join(dir, 'states', 'x.hcl');
  return {
    dir,
    etc,
    async run(hcl, extra = [], runnerMode = mode) {
      writeFile(states, hcl);
      const r = await govern(['run', states, '--json', '--runner-mode', runnerMode, ...extra]);
      try {
        return { code: r.code, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
      } catch {
        throw new Error(`govern run --json printed no report (exit ${r.code}): ${r.stdout}${r.stderr}`);
      }
    },
  };
}

describe('file runner: symbolic links on the way to a managed path', function () {
  this.timeout(120_000);

  for (const mode of ['persistent', 'oneshot']) {
    describe(`${mode} runners`, () => {
      it('refuses a link another user planted in a world-writable directory, in noop and for real, for a write, a source and a creates', async () => {
        const t = setup(mode);
        const tmp = path.join(t.dir, 'tmp');
        fs.mkdirSync(tmp);
        fs.chmodSync(tmp, 0o1777);
        asNobody(`ln -s ${t.etc} ${tmp}/sub2`);
        fs.writeFileSync(path.join(t.etc, 'shadow'), 'root-only\n', { mode: 0o600 });
        const refusal = `refusing to follow ${tmp}/sub2, a symbolic link owned by uid ${NOBODY} in ${tmp}, a directory owned by uid 0`;
        const hcl =
          file(`${tmp}/sub2/evil`) +
          `file "${t.dir}/copy" {\n  ensure = "present"\n  source = "${tmp}/sub2/shadow"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n` +
          `exec "touch ${t.dir}/ran" {\n  command = "/usr/bin/touch ${t.dir}/ran"\n  creates = "${tmp}/sub2/shadow"\n}\n`;

        for (const extra of [['--noop'], []]) {
          const r = await t.run(hcl, extra);
          expect(r.code, r.stderr).to.not.equal(0);
          const [write, source, creates] = r.report.resources;
          expect(write.status).to.equal('failed');
          expect(write.message).to.contain(`${tmp}/sub2/evil: ${refusal}`);
          expect(source.status).to.equal('failed');
          expect(source.message).to.contain(`${tmp}/sub2/shadow: ${refusal}`);
          expect(creates.status, 'whoever planted the link does not decide that the command need not run').to.equal('failed');
          expect(creates.message).to.contain(refusal);
        }
        expect(fs.readdirSync(t.etc)).to.deep.equal(['shadow']);
        expect(fs.existsSync(`${t.dir}/copy`)).to.equal(false);
        expect(fs.existsSync(`${t.dir}/ran`)).to.equal(false);
      });

      it("refuses a user's own directory turned into a link to root's, also through a relative '..'; writes her real directory", async () => {
        const t = setup(mode);
        const home = path.join(t.dir, 'home');
        fs.mkdirSync(home);
        fs.chownSync(home, NOBODY, NOBODY);
        asNobody(`mkdir ${home}/.config`);
        const ok = await t.run(file(`${home}/.config/app.conf`));
        expect(ok.code, ok.stderr).to.equal(0);
        expect(fs.readFileSync(`${home}/.config/app.conf`, 'utf8')).to.equal('pwned');

        asNobody(`rm -r ${home}/.config && ln -s ${t.etc} ${home}/.config && ln -s ../etc ${home}/up`);
        const r = await t.run(file(`${home}/.config/app.conf`) + file(`${home}/up/app.conf`));
        expect(r.code).to.not.equal(0);
        const [absolute, relative] = r.report.resources;
        expect(absolute.status).to.equal('failed');
        expect(absolute.message).to.contain(`refusing to go through ${home}/.config (a symbolic link to ${t.etc}) from something owned by uid ${NOBODY} to /, owned by uid 0`);
        expect(relative.status).to.equal('failed');
        expect(relative.message, relative.message).to.contain(`refusing to go through ${home}/up (a symbolic link to ../etc) from something owned by uid ${NOBODY} to ${t.dir}, owned by uid 0`);
        expect(fs.readdirSync(t.etc)).to.deep.equal([]);
      });

      it('follows links root made: a relative one in the tree, and Debian\'s own /var/run -> /run', async () => {
        const t = setup(mode);
        fs.mkdirSync(path.join(t.dir, 'usr', 'lib'), { recursive: true });
        fs.symlinkSync('usr/lib', path.join(t.dir, 'lib'));
        expect(fs.readlinkSync('/var/run'), 'this host links /var/run to /run').to.match(/^\/?run$/);
        const name = `govtest19-${crypto.randomBytes(4).toString('hex')}`;
        try {
          const r = await t.run(file(`${t.dir}/lib/app.conf`) + file(`/var/run/${name}`));
          expect(r.code, r.stderr).to.equal(0);
          expect(r.report.resources.map((x) => x.status)).to.deep.equal(['changed', 'changed']);
          expect(fs.readFileSync(`${t.dir}/usr/lib/app.conf`, 'utf8')).to.equal('pwned');
          expect(fs.readFileSync(`/run/${name}`, 'utf8')).to.equal('pwned');
          const again = await t.run(file(`${t.dir}/lib/app.conf`) + file(`/var/run/${name}`));
          expect(again.report.summary).to.include({ changed: 0, unchanged: 2 });
        } finally {
          fs.rmSync(`/run/${name}`, { force: true });
        }
      });
    });
  }

  it('a user swapping her directory for a link while govern writes never redirects a write (persistent and one-shot)', async () => {
    const t = setup('persistent');
    const home = path.join(t.dir, 'home');
    fs.mkdirSync(home);
    fs.chownSync(home, NOBODY, NOBODY);
    asNobody(`mkdir ${home}/.config`);
    // nobody swaps .config between her real directory and a link to root's, as fast as she can.
    const swap = `const fs = require('fs'); process.chdir(${JSON.stringify(home)}); for (;;) { try { fs.renameSync('.config', '.real'); fs.symlinkSync(${JSON.stringify(t.etc)}, '.config'); fs.unlinkSync('.config'); fs.renameSync('.real', '.config'); } catch {} }`;
    const swapper: ChildProcess = spawn('su', ['-s', '/bin/sh', 'nobody', '-c', `exec ${process.execPath} -e ${shellWord(swap)}`], { stdio: 'ignore' });
    try {
      const hcl = Array.from({ length: 40 }, (_, i) => file(`${home}/.config/f${i}`)).join('');
      for (const mode of ['persistent', 'oneshot']) {
        const r = await t.run(hcl, [], mode);
        expect(r.report.resources).to.have.length(40);
      }
    } finally {
      swapper.kill('SIGKILL');
      spawnSync('pkill', ['-KILL', '-u', 'nobody', '-f', 'fs.renameSync']);
    }
    expect(fs.readdirSync(t.etc), 'nothing ever landed where the link pointed').to.deep.equal([]);
  });
});

function shellWord(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
