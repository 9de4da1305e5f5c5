// A pulled checkout's paths as the repository's, with the commit after the whole place.
import { expect } from 'chai';
import { pulledPaths, showPulledTree } from '../../src/shared/pulled-paths.js';

describe('the paths of a pulled tree in messages #once', () => {
  const dir = '/var/lib/govern/pull/states-0c6168c241df2c6c/trees/5b51bd5f661d220250f4efbbb5723e2a369523df';
  before(() => showPulledTree(dir, '5b51bd5f661d220250f4efbbb5723e2a369523df'));

  it('puts the commit after the line', () => {
    expect(pulledPaths(`${dir}/site.hcl:14: health check "a" failed`)).to.equal('site.hcl:14 (commit 5b51bd5): health check "a" failed');
  });

  it('keeps the column with the line, before the commit (a syntax error names both)', () => {
    expect(pulledPaths(`${dir}/bad.hcl:2:12: present is a bare word`)).to.equal('bad.hcl:2:12 (commit 5b51bd5): present is a bare word');
  });

  it('names a file without a line', () => {
    expect(pulledPaths(`"${dir}/data/common.hcl"`)).to.equal('"data/common.hcl (commit 5b51bd5)"');
  });
});
