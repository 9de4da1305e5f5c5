// The unit decision's messages: the reload a change leaves pending (or runs), never in noop mode.
import { expect } from 'chai';
import { decideUnit, unitMessage } from '../../../src/runners/unit/decide.js';

const desired = { path: '/etc/systemd/system/app.service', ensure: 'present' as const, content: Buffer.from('[Service]\n'), mode: 0o644, uid: 0, gid: 0 };

describe('unit decision #once', () => {
  it('a change needs a reload, and says whether it is pending or done', () => {
    const plan = decideUnit(desired, { type: 'absent' });
    expect(plan.reload).to.equal(true);
    expect(unitMessage(plan, false, 'pending')).to.equal('created /etc/systemd/system/app.service; daemon-reload pending');
    expect(unitMessage(plan, false, 'reloaded')).to.equal('created /etc/systemd/system/app.service; daemon-reload done');
    expect(unitMessage(plan, true)).to.equal('Would have created /etc/systemd/system/app.service');
  });

  it('no change, no reload', () => {
    const plan = decideUnit(desired, { type: 'file', content: Buffer.from('[Service]\n'), mode: 0o644, uid: 0, gid: 0 });
    expect(plan.reload).to.equal(false);
    expect(unitMessage(plan, false)).to.equal('/etc/systemd/system/app.service up to date');
  });
});
