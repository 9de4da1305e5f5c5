// The git decision table (docs/git.md), row by row.
import { expect } from 'chai';
import { decideGit, type GitCurrent } from '../../../src/runners/git/decide.js';
import { isCommitId, type GitProperties } from '../../../src/runners/git/properties.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const p = (over: Partial<GitProperties> = {}): GitProperties => ({ dir: '/srv/app', ensure: 'present', source: '/git/app.git', revision: 'main', force: false, ...over });
const at = (over: Partial<GitCurrent> = {}): GitCurrent => ({ dir: 'checkout', origin: '/git/app.git', head: A, changes: [], wanted: A, ...over });

describe('git decision #once', () => {
  it('clones into a missing or empty directory; noop says so', () => {
    expect(decideGit(p(), { dir: 'absent', changes: [] }, false)).to.deep.equal({ changed: true, action: 'clone', message: 'cloned /git/app.git into /srv/app at main' });
    expect(decideGit(p({ revision: undefined }), { dir: 'empty', changes: [] }, true).message).to.equal('Would have cloned /git/app.git into /srv/app at the default branch');
  });

  it('at the wanted commit: nothing, local changes reported', () => {
    expect(decideGit(p(), at(), false)).to.deep.equal({ changed: false, action: 'none', message: '/srv/app at main (aaaaaaaaaaaa)' });
    expect(decideGit(p(), at({ changes: ['README', 'a.c'] }), false).message).to.equal('/srv/app at main (aaaaaaaaaaaa); 2 files changed locally (README, a.c)');
  });

  it('another commit wanted: moves, unless local changes and no force', () => {
    expect(decideGit(p(), at({ wanted: B }), true).message).to.equal('Would have moved /srv/app to main: aaaaaaaaaaaa -> bbbbbbbbbbbb');
    expect(() => decideGit(p(), at({ wanted: B, changes: ['README'] }), false)).to.throw('/srv/app has local changes to README: not moved to main (force = true discards them)');
    expect(decideGit(p({ force: true }), at({ wanted: B, changes: ['README'] }), false).message).to.equal('moved /srv/app to main: aaaaaaaaaaaa -> bbbbbbbbbbbb (local changes discarded)');
  });

  it('a revision not known here: fetched', () => {
    expect(decideGit(p({ revision: 'v2' }), at({ wanted: undefined }), false)).to.deep.equal({ changed: true, action: 'checkout', message: 'moved /srv/app to v2: aaaaaaaaaaaa -> fetched' });
  });

  it('present without a revision: any commit will do', () => {
    expect(decideGit(p({ revision: undefined }), at({ wanted: undefined }), false)).to.deep.equal({ changed: false, action: 'none', message: '/srv/app cloned (aaaaaaaaaaaa)' });
  });

  it('refuses a directory that is something else, or a checkout of another repository', () => {
    expect(() => decideGit(p(), { dir: 'other', changes: [] }, false)).to.throw('/srv/app is not empty and not a git checkout');
    expect(() => decideGit(p(), at({ origin: '/git/other.git' }), false)).to.throw('/srv/app is a checkout of /git/other.git, not of /git/app.git: left alone');
  });

  it('tells a commit id from a branch or tag', () => {
    expect(['abc1234', A, 'main', 'v1.0', 'abc12'].map(isCommitId)).to.deep.equal([true, true, false, false, false]);
  });
});
