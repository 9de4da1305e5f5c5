import { expect } from 'chai';
import { compareRpmToWanted, parseRpmVersion } from '../../../src/shared/version/rpm.js';

describe('rpm versions #once', () => {
  it('parses epoch, version and release', () => {
    expect(parseRpmVersion('1:2.0-3.fc39')).to.deep.equal({ epoch: 1, version: '2.0', release: '3.fc39', hasEpoch: true });
    expect(parseRpmVersion('5.8-9.el9')).to.deep.equal({ epoch: 0, version: '5.8', release: '9.el9', hasEpoch: false });
    expect(parseRpmVersion('0:1.0.0-1.el9')).to.deep.equal({ epoch: 0, version: '1.0.0', release: '1.el9', hasEpoch: true });
    expect(parseRpmVersion('2.0~rc1')).to.deep.equal({ epoch: 0, version: '2.0~rc1', release: undefined, hasEpoch: false });
  });

  it('compares an installed version with a wanted one on the parts the wanted one gives', () => {
    expect(compareRpmToWanted('1:0.5-1', '0.5-1')).to.equal(0);
    expect(compareRpmToWanted('1:0.5-1', '0.5')).to.equal(0);
    expect(compareRpmToWanted('1:0.5-1', '1:0.5-1')).to.equal(0);
    expect(compareRpmToWanted('1:0.5-1', '0:0.5-1')).to.equal(1);
    expect(compareRpmToWanted('0.5-1', '1:0.5')).to.equal(-1);
    expect(compareRpmToWanted('1.1-1', '1.1-2')).to.equal(-1);
    expect(compareRpmToWanted('2.0~rc1-1', '2.0')).to.equal(-1);
    expect(compareRpmToWanted('1.1-1', '1.0')).to.equal(1);
  });
});
