// The real runners/git in both runner modes never runs another user's code: a checkout or a source
// repository another user owns is refused even where git's safe.directory lets git in, and in a
// checkout of its own no hook and no core.fsmonitor run. A whole commit id is that commit, whatever
// a branch of the same name says.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const IDENTITY = ['-c', 'user.name=govern test', '-c', 'user.email=test@example.org', '-c', 'init.defaultBranch=main'];
const git = (dir: string, ...args: string[]) => execFileSync('git', [...IDENTITY, '-C', dir, ...args], { encoding: 'utf8' }).trim();
// As root's own configuration would say it: git then lets root into any repository.
const SAFE_EVERYWHERE = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };

/** A bare origin with two commits on main, the working copy, and a marker a planted program would create. */
function origin(): { root: string; bare: string; work: string; first: string; second: string; marker: string; plant: string } {
  const root = tempDir('govern-git-foreign-');
  fs.chmodSync(root, 0o755);
  const bare = path.join(root, 'app.git');
  const work = path.join(root, 'work');
  execFileSync('git', [...IDENTITY, 'init', '--quiet', '--bare', bare]);
  execFileSync('git', [...IDENTITY, 'init', '--quiet', work]);
  const commit = (content: string) => {
    fs.writeFileSync(path.join(work, 'README'), content);
    git(work, 'add', 'README');
    git(work, 'commit', '--quiet', '-m', content.trim());
    git(work, 'push', '--quiet', bare, 'HEAD:main');
    return git(work, 'rev-parse', 'HEAD');
  };
  const first = commit('one\n');
  const second = commit('two\n');
  const marker = path.join(root, 'ran-as-root');
  const plant = writeFile(path.join(root, 'plant'), `#!/bin/sh\nid -u >> ${marker}\nexit 1\n`, 0o755);
  return { root, bare, work, first, second, marker, plant };
}

for (const mode of MODES) {
  describe(`git runner: other users' repositories, hooks, commit ids (${mode}) #once`, function () {
    this.timeout(60_000);
    const run = (dir: string, args: string[], env: Record<string, string> = {}) => callRunner('git', mode, dir, args, { ...SAFE_EVERYWHERE, ...env });

    it('refuses a checkout another user owns, before running git in it: its core.fsmonitor never runs', async () => {
      const o = origin();
      const dir = path.join(o.root, 'theirs');
      execFileSync('git', ['clone', '--quiet', o.bare, dir]);
      git(dir, 'config', 'core.fsmonitor', o.plant);
      execFileSync('chown', ['-R', 'nobody', dir]);
      const r = await run(dir, [`source=${o.bare}`, 'revision=main']);
      expect(r.ok).to.equal(false);
      expect(r.message).to.match(new RegExp(`^refusing the checkout ${dir}: ${dir} is owned by uid \\d+, not by root: git would run what its configuration and hooks name as root`));
      expect(fs.existsSync(o.marker)).to.equal(false);
    });

    it('refuses a source on this host another user owns; a checkout of the resource\'s user is that user\'s to run', async () => {
      const o = origin();
      execFileSync('chown', ['-R', 'nobody', o.bare]);
      const dir = path.join(tempDir('govern-git-co-'), 'app');
      const r = await run(dir, [`source=${o.bare}`]);
      expect(r.ok).to.equal(false);
      expect(r.message).to.match(new RegExp(`^refusing the source ${o.bare}: ${o.bare} is owned by uid \\d+, not by root`));
      expect(fs.existsSync(dir)).to.equal(false);
      const url = await run(dir, [`source=file://${o.bare}`]);
      expect(url.message).to.match(/^refusing the source/);
    });

    it('runs no hook and no core.fsmonitor of a checkout it owns, moving it', async () => {
      const o = origin();
      const dir = path.join(tempDir('govern-git-co-'), 'app');
      expect(await run(dir, [`source=${o.bare}`, `revision=${o.first}`])).to.include({ ok: true, changed: true });
      git(dir, 'config', 'core.fsmonitor', o.plant);
      for (const hook of ['post-checkout', 'reference-transaction', 'post-index-change']) fs.copyFileSync(o.plant, path.join(dir, '.git', 'hooks', hook));
      const moved = await run(dir, [`source=${o.bare}`, 'revision=main']);
      expect(moved, moved.log).to.include({ ok: true, changed: true });
      expect(git(dir, 'rev-parse', 'HEAD')).to.equal(o.second);
      expect(fs.existsSync(o.marker)).to.equal(false);
    });

    it('a whole commit id is that commit, though a branch of the same name points elsewhere', async () => {
      const o = origin();
      git(o.work, 'push', '--quiet', o.bare, `${o.second}:refs/heads/${o.first}`);
      git(o.work, 'push', '--quiet', o.bare, `${o.second}:refs/tags/${o.first}`);
      const dir = path.join(tempDir('govern-git-co-'), 'app');
      expect(await run(dir, [`source=${o.bare}`, `revision=${o.first}`])).to.include({ ok: true, changed: true });
      expect(git(dir, 'rev-parse', 'HEAD')).to.equal(o.first);
      expect(await run(dir, [`source=${o.bare}`, `revision=${o.first}`])).to.include({ ok: true, changed: false });
      // And from another commit: moved to the commit, not to what the branch names.
      git(dir, 'checkout', '--quiet', '--detach', o.second);
      expect(await run(dir, [`source=${o.bare}`, `revision=${o.first}`])).to.include({ ok: true, changed: true });
      expect(git(dir, 'rev-parse', 'HEAD')).to.equal(o.first);
    });
  });
}
