import { expect } from 'chai';
import { parseDuration } from '../../src/shared/duration.js';

describe('parseDuration #once', () => {
  it('reads seconds, minutes, hours, milliseconds and combinations', () => {
    expect(parseDuration('30s')).to.equal(30_000);
    expect(parseDuration('5m')).to.equal(300_000);
    expect(parseDuration('1h')).to.equal(3_600_000);
    expect(parseDuration('1h30m')).to.equal(5_400_000);
    expect(parseDuration('250ms')).to.equal(250);
    expect(parseDuration('10')).to.equal(10_000);
    expect(parseDuration('1.5s')).to.equal(1500);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 's', '10x', '-1s', '1 h', 'forever']) expect(() => parseDuration(bad), bad).to.throw(/invalid duration/);
  });
});
