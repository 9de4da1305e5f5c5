// The PATH the runners' commands are looked up in.
import { expect } from 'chai';
import { withSbinPath } from '../../src/shared/find-program.js';

describe('withSbinPath #once', () => {
  it('adds the sbin directories to a PATH that lacks them, keeping the caller order first', () => {
    expect(withSbinPath({ PATH: '/opt/bin:/usr/bin:/bin' }).PATH).to.equal('/opt/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin');
    expect(withSbinPath({ PATH: '/usr/sbin:/usr/bin' }).PATH).to.equal('/usr/sbin:/usr/bin:/usr/local/sbin:/sbin');
    expect(withSbinPath({}).PATH).to.equal('/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin');
  });
});
