import { expect } from 'chai';
import { dropTrailingZeroes } from '../../../src/shared/version/generic.js';

describe('generic versions: trailing zeroes #once', () => {
  it('drops trailing .0 segments before the first hyphen, as the seed shows', () => {
    expect(dropTrailingZeroes('1.0.0-rc1')).to.equal('1-rc1');
    expect(dropTrailingZeroes('2.0.0')).to.equal('2');
    expect(dropTrailingZeroes('1.00')).to.equal('1');
  });
  it('keeps everything else', () => {
    expect(dropTrailingZeroes('1.10')).to.equal('1.10');
    expect(dropTrailingZeroes('10')).to.equal('10');
    expect(dropTrailingZeroes('1.0-1.0')).to.equal('1-1.0');
    expect(dropTrailingZeroes('0')).to.equal('0');
  });
});
