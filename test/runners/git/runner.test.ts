// The real runners/git in both runner modes, against local repositories the test makes with git:
// a bare origin, and a working copy that pushes commits to it.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

const IDENTITY = ['-c', 'user.name=govern test', '-c', 'user.email=test@example.org', '-c', 'init.defaultBranch=main'];
const git = (dir: string, ...args: string[]) => execFileSync('git', [...IDENTITY, '-C', dir, ...args], { encoding: 'utf8' }).trim();

/** A bare origin with one commit on main, and the working copy that pushes to it. */
function origin(): { bare: string; work: string; commit(file: string, content: string): string } {
  const root = tempDir('govern-git-');
  fs.chmodSync(root, 0o755);
  const bare = path.join(root, 'app.git');
  const work = path.join(root, 'work');
  execFileSync('git', [...IDENTITY, 'init', '--quiet', '--bare', bare]);
  execFileSync('git', [...IDENTITY, 'init', '--quiet', work]);
  git(work, 'remote', 'add', 'origin', bare);
  const commit = (file: string, content: string) => {
    fs.writeFileSync(path.join(work, file), content);
    git(work, 'add', file);
    git(work, 'commit', '--quiet', '-m', `${file}: ${content.trim()}`);
    git(work, 'push', '--quiet', 'origin', 'HEAD:main');
    return git(work, 'rev-parse', 'HEAD');
  };
  commit('README', 'one\n');
  return { bare, work, commit };
}

for (const mode of MODES) {
  describe(`git runner (${mode}, local repositories) #once`, function () {
    this.timeout(60_000);
    const run = (dir: string, args: string[], env: Record<string, string> = {}) => callRunner('git', mode, dir, args, env);

    it('noop, clone, no change; present stays, latest follows the branch; local changes kept unless force', async () => {
      const o = origin();
      const dir = path.join(tempDir('govern-git-co-'), 'app');
      const first = git(o.work, 'rev-parse', 'HEAD');
      const args = [`source=${o.bare}`, 'revision=main'];
      expect(await run(dir, args, { GOVERN_NOOP: '1' })).to.include({ ok: true, changed: true, message: `Would have cloned ${o.bare} into ${dir} at main` });
      expect(fs.existsSync(dir)).to.equal(false);
      expect(await run(dir, args)).to.include({ ok: true, changed: true, message: `cloned ${o.bare} into ${dir} at main (${first.slice(0, 12)})` });
      expect(await run(dir, args)).to.include({ ok: true, changed: false, message: `${dir} at main (${first.slice(0, 12)})` });

      const second = o.commit('README', 'two\n');
      expect(await run(dir, args)).to.include({ changed: false, message: `${dir} at main (${first.slice(0, 12)})` });
      expect(await run(dir, ['ensure=latest', ...args], { GOVERN_NOOP: '1' })).to.include({ changed: true, message: `Would have moved ${dir} to main: ${first.slice(0, 12)} -> ${second.slice(0, 12)}` });
      expect(await run(dir, ['ensure=latest', ...args])).to.include({ ok: true, changed: true, message: `moved ${dir} to main: ${first.slice(0, 12)} -> ${second.slice(0, 12)}` });
      expect(fs.readFileSync(path.join(dir, 'README'), 'utf8')).to.equal('two\n');

      const third = o.commit('README', 'three\n');
      fs.writeFileSync(path.join(dir, 'README'), 'mine\n');
      const refused = await run(dir, ['ensure=latest', ...args]);
      expect(refused).to.include({ ok: false, message: `${dir} has local changes to README: not moved to main (force = true discards them)` });
      expect(fs.readFileSync(path.join(dir, 'README'), 'utf8')).to.equal('mine\n');
      expect(await run(dir, args)).to.include({ ok: true, changed: false, message: `${dir} at main (${second.slice(0, 12)}); 1 file changed locally (README)` });
      expect(await run(dir, ['ensure=latest', 'force=true', ...args])).to.include({ ok: true, changed: true, message: `moved ${dir} to main: ${second.slice(0, 12)} -> ${third.slice(0, 12)} (local changes discarded)` });
      expect(fs.readFileSync(path.join(dir, 'README'), 'utf8')).to.equal('three\n');
    });

    it('a tag and a commit id, fetched when not known here; a shallow clone (file://: git ignores depth for a plain path)', async () => {
      const o = origin();
      git(o.work, 'tag', 'v1');
      git(o.work, 'push', '--quiet', 'origin', 'v1');
      const v1 = git(o.work, 'rev-parse', 'HEAD');
      const dir = path.join(tempDir('govern-git-co-'), 'app');
      const url = `file://${o.bare}`;
      expect(await run(dir, [`source=${url}`, 'revision=v1', 'depth=1'])).to.include({ ok: true, changed: true, message: `cloned ${url} into ${dir} at v1 (${v1.slice(0, 12)})` });
      expect(git(dir, 'rev-parse', '--is-shallow-repository')).to.equal('true');
      const next = o.commit('b', 'b\n');
      expect(await run(dir, [`source=${url}`, `revision=${next}`, 'depth=1'])).to.include({ ok: true, changed: true, message: `moved ${dir} to ${next}: ${v1.slice(0, 12)} -> ${next.slice(0, 12)}` });
      expect(await run(dir, [`source=${url}`, `revision=${next}`])).to.include({ changed: false });
    });

    it('as a user: the checkout is that user\'s', async () => {
      const o = origin();
      const parent = tempDir('govern-git-co-');
      execFileSync('chown', ['nobody', parent]);
      execFileSync('chown', ['-R', 'nobody', o.bare]); // git reads no repository of another user
      const dir = path.join(parent, 'app');
      expect(await run(dir, [`source=${o.bare}`, 'user=nobody'])).to.include({ ok: true, changed: true });
      expect(fs.statSync(path.join(dir, 'README')).uid).to.equal(Number(execFileSync('id', ['-u', 'nobody']).toString()));
      expect(await run(dir, [`source=${o.bare}`, 'user=nobody'])).to.include({ ok: true, changed: false });
      expect(await run(dir, [`source=${o.bare}`, 'user=govern-no-such-user'])).to.include({ ok: false, message: 'no user govern-no-such-user' });
    });

    it('refuses a checkout of another repository and bad input', async () => {
      const o = origin();
      const dir = path.join(tempDir('govern-git-co-'), 'app');
      await run(dir, [`source=${o.bare}`]);
      expect(await run(dir, ['source=/elsewhere.git'])).to.include({ ok: false, message: `${dir} is a checkout of ${o.bare}, not of /elsewhere.git: left alone` });
      const bad = await run(dir, ['source=-x', 'revison=main', 'revision=--upload-pack=x']);
      expect(bad.message).to.equal('unknown key "revison" (did you mean "revision"?); source "-x" is not a repository URL or path, without blanks, not starting with -; revision "--upload-pack=x" is not a branch, tag or commit id, not starting with - or /');
    });
  });
}
