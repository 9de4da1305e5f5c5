import { expect } from 'chai';
import { closest, didYouMean, editDistance } from '../../src/shared/suggest.js';

describe('suggestions #once', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('owner', 'owner')).to.equal(0);
    expect(editDistance('onwer', 'owner')).to.equal(1);
    expect(editDistance('mod', 'mode')).to.equal(1);
    expect(editDistance('ensrue', 'ensure')).to.equal(1);
    expect(editDistance('abc', 'xyz')).to.equal(3);
  });

  it('suggests the closest known word for a likely typo', () => {
    const keys = ['ensure', 'owner', 'group', 'mode', 'refresh_only'];
    expect(closest('onwer', keys)).to.equal('owner');
    expect(closest('refreshonly', keys)).to.equal('refresh_only');
    expect(closest('refresh-only', keys)).to.equal('refresh_only');
    expect(closest('Mode', keys)).to.equal('mode');
    expect(didYouMean('gropu', keys)).to.equal(' (did you mean "group"?)');
  });

  it('suggests nothing when no word is close', () => {
    expect(closest('colour', ['ensure', 'owner'])).to.equal(undefined);
    expect(closest('x', [])).to.equal(undefined);
    expect(didYouMean('zzzzzz', ['owner'])).to.equal('');
  });

  it('takes the earlier candidate on a tie', () => {
    expect(closest('rn', ['run', 'rm'])).to.equal('run');
  });
});
