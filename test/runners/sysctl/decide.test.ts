// The sysctl decision table (docs/sysctl.md), row by row: the live value and the drop-in each
// checked, one message for both.
import { expect } from 'chai';
import { decideSysctl, sysctlMessage } from '../../../src/runners/sysctl/decide.js';
import { withKey } from '../../../src/runners/sysctl/drop-in.js';
import { normalValue, procPath, type SysctlProperties } from '../../../src/runners/sysctl/properties.js';
import type { WholeFileCurrent } from '../../../src/runners/lib/whole-file/decide.js';

const FILE = '/etc/sysctl.d/90-govern-net.ipv4.ip_forward.conf';
const want = (over: Partial<SysctlProperties> = {}): SysctlProperties => ({ key: 'net.ipv4.ip_forward', ensure: 'present', value: '1', apply: true, persist: true, file: FILE, shared: false, ...over });
const dropIn = (p: SysctlProperties) => ({ path: p.file, ensure: p.ensure, content: p.value === undefined ? undefined : Buffer.from(withKey(undefined, p.key, p.value)!), mode: 0o644, uid: 0, gid: 0 });
const persisted = (value: string): WholeFileCurrent => ({ type: 'file', content: Buffer.from(withKey(undefined, 'net.ipv4.ip_forward', value)!), mode: 0o644, uid: 0, gid: 0 });
const row = (p: SysctlProperties, live: string | undefined, file: WholeFileCurrent) => {
  const plan = decideSysctl(p, { live, file }, dropIn(p));
  return [plan.changed, plan.setLive, plan.file?.action, sysctlMessage(plan, false), sysctlMessage(plan, true)];
};

describe('sysctl decision #once', () => {
  it('both right: nothing, and the message says both', () => {
    expect(row(want(), '1\n', persisted('1'))).to.deep.equal([false, undefined, 'none', `live value 1; persisted in ${FILE}`, `live value 1; persisted in ${FILE}`]);
  });

  it('live wrong, drop-in missing: both, and noop says both', () => {
    expect(row(want(), '0\n', { type: 'absent' })).to.deep.equal([
      true,
      '1',
      'write',
      `set live value 0 -> 1; created ${FILE}`,
      `Would have set live value 0 -> 1; Would have created ${FILE}`,
    ]);
  });

  it('live right, drop-in with another value: the drop-in only', () => {
    expect(row(want(), '1\n', persisted('0'))).to.deep.equal([true, undefined, 'write', `live value 1; changed ${FILE} (content)`, `live value 1; Would have changed ${FILE} (content)`]);
  });

  it('compares values with runs of blanks as one space', () => {
    expect(row(want({ key: 'net.ipv4.tcp_rmem', value: '4096  87380 6291456' }), '4096\t87380\t6291456\n', { type: 'absent' })[1]).to.equal(undefined);
    expect(normalValue(' 1\t 2 \n')).to.equal('1 2');
  });

  it('apply = false leaves the live value unread; persist = false leaves the drop-in alone', () => {
    expect(row(want({ apply: false }), undefined, persisted('1'))).to.deep.equal([false, undefined, 'none', `persisted in ${FILE}`, `persisted in ${FILE}`]);
    expect(row(want({ persist: false }), '0', persisted('7'))).to.deep.equal([true, '1', undefined, 'set live value 0 -> 1', 'Would have set live value 0 -> 1']);
  });

  it('absent removes the drop-in and leaves the live value', () => {
    expect(row(want({ ensure: 'absent', value: undefined }), undefined, persisted('1'))).to.deep.equal([true, undefined, 'remove', `removed ${FILE}`, `Would have removed ${FILE}`]);
    expect(row(want({ ensure: 'absent', value: undefined }), undefined, { type: 'absent' })).to.deep.equal([false, undefined, 'none', `${FILE} absent`, `${FILE} absent`]);
  });

  it('a key the kernel does not have is an error', () => {
    expect(() => row(want(), undefined, { type: 'absent' })).to.throw('the kernel has no sysctl net.ipv4.ip_forward');
  });

  it('maps the dotted key to /proc/sys as sysctl(8) does', () => {
    expect(procPath('net.ipv4.conf.eth0/100.rp_filter')).to.equal('/proc/sys/net/ipv4/conf/eth0.100/rp_filter');
  });
});
