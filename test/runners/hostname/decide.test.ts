// The hostname decision table (docs/hostname.md), row by row. #once: pure, it starts no run.
import { expect } from 'chai';
import { decideHostname, hostnameMessage } from '../../../src/runners/hostname/decide.js';
import type { HostnameProperties } from '../../../src/runners/hostname/properties.js';

const want = (over: Partial<HostnameProperties> = {}): HostnameProperties => ({ name: 'web1', apply: true, persist: true, file: '/etc/hostname', ...over });
const file = (content: string, mode = 0o644, uid = 0) => ({ type: 'file' as const, content: Buffer.from(content), mode, uid, gid: 0 });

describe('hostname decision #once', () => {
  it('both right: no change, and the message says so', () => {
    const plan = decideHostname(want(), { live: 'web1', file: file('web1\n') });
    expect(plan.changed).to.equal(false);
    expect(hostnameMessage(plan, false)).to.equal("the kernel's name is web1; /etc/hostname names web1");
  });

  it('another kernel name and no file: both set; noop says Would have for each', () => {
    const plan = decideHostname(want(), { live: 'localhost', file: { type: 'absent' } });
    expect(plan).to.include({ changed: true, setLive: 'web1' });
    expect(plan.dropIn?.content?.toString()).to.equal('web1\n');
    expect(hostnameMessage(plan, true)).to.equal("Would have set the kernel's name localhost -> web1; Would have created /etc/hostname");
    expect(hostnameMessage(plan, false)).to.equal("set the kernel's name localhost -> web1; created /etc/hostname");
  });

  it('a file naming the host under a comment is kept as it is; only its mode is corrected', () => {
    const same = decideHostname(want(), { live: 'web1', file: file('# set by the installer\nweb1\n') });
    expect(same.changed).to.equal(false);
    const mode = decideHostname(want(), { live: 'web1', file: file('# set by the installer\nweb1\n', 0o600) });
    expect(mode.parts[1]).to.equal('changed /etc/hostname (mode 0600 -> 0644)');
    expect(mode.dropIn?.content?.toString()).to.equal('# set by the installer\nweb1\n');
  });

  it('a file naming another host is written whole with the name', () => {
    const plan = decideHostname(want(), { live: 'web1', file: file('# old\nweb2\n') });
    expect(plan.file).to.include({ changed: true, contentChanged: true });
    expect(plan.dropIn?.content?.toString()).to.equal('web1\n');
  });

  it('apply = false leaves the kernel alone; persist = false leaves the file alone', () => {
    expect(decideHostname(want({ apply: false }), { file: file('web1\n') }).parts).to.deep.equal(['/etc/hostname names web1']);
    const live = decideHostname(want({ persist: false }), { live: 'other' });
    expect(live.parts).to.deep.equal(["set the kernel's name other -> web1"]);
    expect(live.file).to.equal(undefined);
  });

  it('a link or a directory at the file is refused, never followed', () => {
    expect(() => decideHostname(want(), { live: 'web1', file: { type: 'symlink', target: '/tmp/x' } })).to.throw(/link/);
    expect(() => decideHostname(want(), { live: 'web1', file: { type: 'other', kind: 'a directory' } })).to.throw('/etc/hostname is a directory, not a regular file');
  });
});
