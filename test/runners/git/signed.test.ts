// The real runners/git with allowed_signers, in both runner modes: commits signed by git with SSH
// keys from ssh-keygen (test/pull/git-lab.ts, the repositories of govern pull's tests), and the
// checkout moved only to a commit signed by a key of the file, as govern pull --allowed-signers.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { gitLab } from '../../pull/git-lab.js';

const head = (dir: string) => execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();

for (const mode of MODES) {
  describe(`git runner with allowed_signers (${mode}, ssh-signed commits) #once`, function () {
    this.timeout(60_000);

    it('cloned at a signed commit; an unsigned one or one signed by another key refused, in noop too, the checkout left; a signed one followed', async () => {
      const lab = await gitLab();
      const signed = await lab.commit({ README: 'one\n' }, 'trusted');
      const dir = path.join(tempDir('govern-git-signed-'), 'app');
      const args = [`source=${lab.bare}`, 'revision=main', 'ensure=latest', `allowed_signers=${lab.allowedSigners}`];
      const run = (env: Record<string, string> = {}) => callRunner('git', mode, dir, args, env);
      expect(await run()).to.include({ ok: true, changed: true, message: `cloned ${lab.bare} into ${dir} at main (${signed.slice(0, 12)})` });

      const unsigned = await lab.commit({ README: 'two\n' }, 'unsigned');
      const refusal = `refusing to move ${dir} to main (${unsigned.slice(0, 12)}): it is not signed (allowed signers: ${lab.allowedSigners}); ${dir} stays where it is`;
      expect(await run()).to.include({ ok: false, message: refusal });
      expect([head(dir), fs.readFileSync(path.join(dir, 'README'), 'utf8')]).to.deep.equal([signed, 'one\n']);
      // Fetched by the run: noop verifies it too, rather than say it would move.
      expect(await run({ GOVERN_NOOP: '1' })).to.include({ ok: false, message: refusal });

      const stranger = await lab.commit({ README: 'three\n' }, 'stranger');
      expect((await run()).message).to.equal(
        `refusing to move ${dir} to main (${stranger.slice(0, 12)}): it is signed by a key that is not in the allowed signers file (allowed signers: ${lab.allowedSigners}); ${dir} stays where it is`,
      );
      expect(head(dir)).to.equal(signed);

      const next = await lab.commit({ README: 'four\n' }, 'trusted');
      expect(await run()).to.include({ ok: true, changed: true, message: `moved ${dir} to main: ${signed.slice(0, 12)} -> ${next.slice(0, 12)}` });
      expect(fs.readFileSync(path.join(dir, 'README'), 'utf8')).to.equal('four\n');
    });

    it('a clone of an unsigned commit is refused and removed; an allowed signers file others can change is refused', async () => {
      const lab = await gitLab();
      const unsigned = await lab.commit({ README: 'one\n' }, 'unsigned');
      const root = tempDir('govern-git-signed-');
      const dir = path.join(root, 'app');
      const r = await callRunner('git', mode, dir, [`source=${lab.bare}`, `allowed_signers=${lab.allowedSigners}`]);
      expect(r).to.include({ ok: false, message: `refusing to clone ${lab.bare} into ${dir} at the default branch (${unsigned.slice(0, 12)}): it is not signed (allowed signers: ${lab.allowedSigners}); ${dir} left as it was` });
      expect(fs.existsSync(dir)).to.equal(false);

      const open = writeFile(path.join(root, 'signers'), fs.readFileSync(lab.allowedSigners, 'utf8'), 0o666);
      fs.chmodSync(open, 0o666);
      const loose = await callRunner('git', mode, dir, [`source=${lab.bare}`, `allowed_signers=${open}`]);
      expect(loose.ok).to.equal(false);
      expect(loose.message).to.contain(`refusing the allowed signers file ${open}: ${open} is writable by anyone`);
      expect(fs.existsSync(dir)).to.equal(false);
    });
  });
}
