// recurse = true: a directory `source` tree copied into the directory through govern run, in both
// runner modes: noop first, each changed entry named, modes by the resource's rule (directories
// searchable where readable), links copied as links, idempotent, with purge keeping what the source
// provides; a link in the way at the destination is refused, and recurse without a source, a recurse
// source that is missing or not a directory, or a plain source that is a directory, is an error at
// its file and line before anything is applied.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { modeOf, snapshot } from './support.js';

function site(body = '  source = "site"\n  recurse = true\n') {
  const dir = tempDir('govern-recurse-');
  const d = path.join(dir, 'www');
  const states = path.join(dir, 'states', 'site.hcl');
  writeFile(path.join(dir, 'states', 'site', 'index.html'), '<h1>hi</h1>\n');
  writeFile(path.join(dir, 'states', 'site', 'conf', 'app.conf'), 'port = 80\n');
  fs.symlinkSync('app.conf', path.join(dir, 'states', 'site', 'conf', 'current'));
  writeFile(states, `file "${d}" {\n  ensure = "directory"\n  owner = "root"\n  group = "root"\n  mode = "0640"\n${body}}\n`);
  return { dir, d, states, source: path.join(dir, 'states', 'site') };
}

describe('file runner: recurse = true', function () {
  this.timeout(120_000);

  for (const mode of ['persistent', 'oneshot']) {
    it(`copies a source tree, noop first, then only what changed (${mode} runners)`, async () => {
      const t = site('  source = "site"\n  recurse = true\n  purge = true\n');
      const run = async (extra: string[] = []) => {
        const r = await govern(['run', t.states, '--json', '--runner-mode', mode, ...extra]);
        return { code: r.code, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
      };
      const noop = await run(['--noop']);
      expect(noop.report.resources[0].message).to.equal(
        'Would have created directory; copied from the source: conf: created directory; conf/app.conf: created the file; conf/current: created symbolic link to app.conf; index.html: created the file',
      );
      expect(fs.existsSync(t.d)).to.equal(false);

      const first = await run();
      expect(first.code, first.stderr).to.equal(0);
      expect(fs.readFileSync(path.join(t.d, 'conf', 'app.conf'), 'utf8')).to.equal('port = 80\n');
      expect(fs.readlinkSync(path.join(t.d, 'conf', 'current'))).to.equal('app.conf');
      expect([modeOf(t.d), modeOf(path.join(t.d, 'conf')), modeOf(path.join(t.d, 'index.html'))]).to.deep.equal([0o640, 0o750, 0o640]);

      const before = snapshot(t.d);
      const second = await run();
      expect(second.report.resources[0]).to.include({ status: 'unchanged', message: 'directory up to date' });
      expect(snapshot(t.d)).to.deep.equal(before);

      writeFile(path.join(t.source, 'conf', 'app.conf'), 'port = 8080\n');
      writeFile(path.join(t.d, 'stray'), 'not in the source\n');
      const third = await run();
      expect(third.report.resources[0].message.replace(/sha256:[0-9a-f]+/g, 'sha256:H')).to.equal(
        'copied from the source: conf/app.conf: changed content sha256:H -> sha256:H; removed 1 entry not managed: stray',
      );
      expect(fs.readFileSync(path.join(t.d, 'conf', 'app.conf'), 'utf8')).to.equal('port = 8080\n');
      expect(fs.readdirSync(t.d).sort()).to.deep.equal(['conf', 'index.html']);
    });
  }

  it('refuses a symbolic link in the way of a file of the tree, and leaves its target alone', async () => {
    const t = site();
    writeFile(path.join(t.dir, 'secret'), 'keep\n');
    fs.mkdirSync(t.d);
    fs.symlinkSync(path.join(t.dir, 'secret'), path.join(t.d, 'index.html'));
    const r = await govern(['run', t.states, '--json']);
    expect(r.code).to.equal(1);
    expect((JSON.parse(r.stdout) as RunReport).resources[0].message).to.include(`${t.d}/index.html is a symbolic link`);
    expect(fs.readFileSync(path.join(t.dir, 'secret'), 'utf8')).to.equal('keep\n');
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`a recurse source missing or not a directory, and a plain source that is a directory, are errors at their lines before anything is applied, in govern plan too (${mode} runners)`, async () => {
      const t = site('  source = "site/index.html"\n  recurse = true\n');
      const other = path.join(t.dir, 'other');
      const plain = (name: string, source: string) =>
        `file "${path.join(t.dir, name)}" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n  source = "${source}"\n}\n`;
      const missing = `file "${t.d}-2" {\n  ensure = "directory"\n  owner = "root"\n  group = "root"\n  mode = "0755"\n  source = "nosuch"\n  recurse = true\n}\n`;
      fs.appendFileSync(t.states, missing + plain('plain', 'site') + plain('good', 'site/index.html'));
      writeFile(path.join(t.dir, 'states', 'first.hcl'), `file "${other}" {\n  ensure = "present"\n  contents = "x"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
      const expected = [
        `${t.states}:6: file:${t.d}: source "site/index.html" must be a directory for ensure = "directory" and recurse = "true": ${t.source}/index.html is a regular file`,
        `${t.states}:14: file:${t.d}-2: source "nosuch" must be a directory for ensure = "directory" and recurse = "true": ${t.dir}/states/nosuch does not exist`,
        `${t.states}:22: file:${t.dir}/plain: source "site" must be a regular file for ensure = "present": ${t.source} is a directory`,
      ];
      for (const extra of [[], ['--noop']]) {
        const r = await govern(['run', path.join(t.dir, 'states'), '--runner-mode', mode, ...extra]);
        expect(r.code).to.equal(1);
        expect(r.stderr).to.equal(expected.map((line) => `govern: ${line}\n`).join(''));
      }
      expect([fs.existsSync(t.d), fs.existsSync(other), fs.existsSync(path.join(t.dir, 'good'))]).to.deep.equal([false, false, false]);
      const plan = await govern(['plan', path.join(t.dir, 'states')]);
      expect(plan.code).to.equal(1);
      // govern plan names the state files relative to the tree.
      expect(plan.stderr).to.equal(expected.map((line) => `govern: ${line.replace(`${t.dir}/states/site.hcl`, 'site.hcl')}\n`).join(''));
    });
  }

  it('needs a source: recurse without one is an error at its line before anything is applied', async () => {
    const t = site('  recurse = true\n');
    const r = await govern(['run', t.states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${t.states}:1: file:${t.d}: source is required for recurse = "true"\n`);
    expect(fs.existsSync(t.d)).to.equal(false);
  });
});
