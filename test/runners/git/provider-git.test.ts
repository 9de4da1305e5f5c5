// The git provider checks out the commit it was given (the one verified, with allowed_signers), not
// what the branch names by the time it checks out: here the remote branch has moved on meanwhile.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { providerContext } from '../../../src/shared/command-runner.js';
import { gitProvider } from '../../../src/runners/git/provider-git.js';
import { tempDir } from '../../support/tmp.js';
import { gitLab } from '../../pull/git-lab.js';

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

describe('git provider: checkout #once', function () {
  this.timeout(60_000);

  it('checks out the commit found, on the branch, following the remote one, though the branch moved since', async () => {
    const lab = await gitLab();
    const found = await lab.commit({ README: 'one\n' }, 'trusted');
    const dir = path.join(tempDir('govern-git-provider-'), 'app');
    execFileSync('git', ['clone', '--quiet', '--no-checkout', lab.bare, dir]);
    await lab.commit({ README: 'two\n' }, 'unsigned');
    git(dir, 'fetch', '--quiet', 'origin');

    await gitProvider(providerContext(process.env, () => {}), { dir, ensure: 'latest', source: lab.bare, revision: 'main', force: false }).checkout(found);
    expect(git(dir, 'rev-parse', 'HEAD')).to.equal(found);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).to.equal('main');
    expect(git(dir, 'rev-parse', '--abbrev-ref', 'main@{upstream}')).to.equal('origin/main');
  });
});
