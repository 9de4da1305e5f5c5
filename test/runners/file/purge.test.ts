// purge = true on a directory: its entries the tree does not manage are removed, in both runner
// modes through govern run, with noop naming exactly what would go; a managed child (a file, or a
// directory holding one) is never touched, nor what a removed link points to. The runner refuses
// without the list govern passes (GOVERN_MANAGED_CHILDREN), and on top-level and system directories,
// also when reached through a link.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern, runnerOutcome } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { snapshot } from './support.js';

const DIR = ['ensure=directory', 'owner=root', 'group=root', 'mode=0755', 'purge=true'];

const block = (name: string, body: string) => `file "${name}" {\n${body}  owner = "root"\n  group = "root"\n}\n`;

describe('file runner: purge = true', function () {
  this.timeout(120_000);

  for (const mode of ['persistent', 'oneshot']) {
    it(`removes what the tree does not manage, noop first, never a managed child (${mode} runners)`, async () => {
      const dir = tempDir('govern-purge-');
      const d = path.join(dir, 'conf.d');
      const states = path.join(dir, 'states', 'purge.hcl');
      writeFile(path.join(d, 'managed.conf'), 'old content\n');
      writeFile(path.join(d, 'sub', 'inner.conf'), 'x\n');
      writeFile(path.join(d, 'sub', 'stray'), 'below the top level: left alone\n');
      writeFile(path.join(d, 'old.conf'), 'left over\n');
      writeFile(path.join(d, 'olddir', 'deep', 'f'), 'left over\n');
      writeFile(path.join(dir, 'precious'), 'a link target\n');
      fs.symlinkSync(path.join(dir, 'precious'), path.join(d, 'to-precious'));
      writeFile(
        states,
        block(d, '  ensure = "directory"\n  mode = "0755"\n  purge = true\n') +
          block(`${d}/managed.conf`, '  ensure = "present"\n  contents = "new content\\n"\n  mode = "0644"\n') +
          block(`${d}/sub/inner.conf`, '  ensure = "present"\n  mode = "0644"\n'),
      );
      fs.chmodSync(path.join(d, 'sub', 'inner.conf'), 0o644);
      const run = async (extra: string[] = []) => {
        const r = await govern(['run', states, '--json', '--runner-mode', mode, ...extra]);
        return { code: r.code, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
      };
      const before = snapshot(d);
      const noop = await run(['--noop']);
      expect(noop.report.resources[0]).to.include({
        ref: `file:${d}`,
        message: 'Would have removed 3 entries not managed: old.conf, olddir/ (a directory, with what it holds), to-precious (a symbolic link)',
      });
      expect(snapshot(d)).to.deep.equal(before);

      const real = await run();
      expect(real.code, real.stderr).to.equal(0);
      const messages = real.report.resources.map((r) => r.message);
      expect(messages[0]).to.equal('removed 3 entries not managed: old.conf, olddir/ (a directory, with what it holds), to-precious (a symbolic link)');
      expect(messages.slice(1).map((m) => m.replace(/sha256:[0-9a-f]+/g, 'sha256:H'))).to.deep.equal(['changed content sha256:H -> sha256:H', 'file up to date']);
      expect(fs.readdirSync(d).sort()).to.deep.equal(['managed.conf', 'sub']);
      expect(fs.readdirSync(path.join(d, 'sub')).sort()).to.deep.equal(['inner.conf', 'stray']);
      expect(fs.readFileSync(path.join(d, 'managed.conf'), 'utf8')).to.equal('new content\n');
      expect(fs.readFileSync(path.join(dir, 'precious'), 'utf8')).to.equal('a link target\n');

      const again = await run();
      expect(again.report.summary).to.include({ changed: 0, unchanged: 3 });
    });
  }

  it('counts an entry as managed when any runner names a path below it (the line runner\'s path key)', async () => {
    const dir = tempDir('govern-purge-');
    const d = path.join(dir, 'srv');
    const states = path.join(dir, 'states', 'purge.hcl');
    writeFile(path.join(d, 'app', 'settings'), 'key = 1\n');
    writeFile(path.join(d, 'gone'), 'x\n');
    writeFile(states, block(d, '  ensure = "directory"\n  mode = "0755"\n  purge = true\n') + `line "setting" {\n  path = "${d}/app/settings"\n  line = "key = 1"\n}\n`);
    const r = await govern(['run', states, '--json']);
    expect(r.code, r.stderr).to.equal(0);
    expect((JSON.parse(r.stdout) as RunReport).resources[0].message).to.equal('removed 1 entry not managed: gone');
    expect(fs.readFileSync(path.join(d, 'app', 'settings'), 'utf8')).to.equal('key = 1\n');
  });

  it('refuses without the managed names govern passes, and on system directories, a link on the way followed', async () => {
    const dir = tempDir('govern-purge-');
    writeFile(path.join(dir, 'd', 'f'), 'x\n');
    const alone = await runnerOutcome('file', [path.join(dir, 'd'), ...DIR], { env: {} });
    expect(alone.code).to.equal(1);
    expect(alone.message).to.match(/needs the names of the entries .* \(GOVERN_MANAGED_CHILDREN\)/);
    expect(fs.existsSync(path.join(dir, 'd', 'f'))).to.equal(true);

    const top = await runnerOutcome('file', ['/usr', ...DIR], { env: { GOVERN_NOOP: '1', GOVERN_MANAGED_CHILDREN: '' } });
    expect(top.message).to.match(/^purge = true is refused on \/usr: /);
    fs.symlinkSync('/usr', path.join(dir, 'u'));
    const through = await runnerOutcome('file', [path.join(dir, 'u', 'share'), ...DIR], { env: { GOVERN_NOOP: '1', GOVERN_MANAGED_CHILDREN: '' } });
    expect(through.code).to.equal(1);
    expect(through.message).to.match(/^purge = true is refused on \/usr\/share: /);

    const kept = await runnerOutcome('file', [path.join(dir, 'd'), ...DIR], { env: { GOVERN_MANAGED_CHILDREN: 'f' } });
    expect(kept).to.deep.include({ code: 0, changed: false });
  });

  it('is only for a directory', async () => {
    const r = await runnerOutcome('file', ['/tmp/x-govern-purge', 'ensure=present', 'owner=root', 'group=root', 'mode=0644', 'purge=true'], { env: { GOVERN_NOOP: '1' } });
    expect(r.code).to.equal(1);
    expect(r.message).to.include('purge');
  });
});
