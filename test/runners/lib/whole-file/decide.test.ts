// The whole-file decision table (docs/unit.md, "What it does"), row by row.
import { expect } from 'chai';
import { decideWholeFile, wholeFileMessage, type WholeFileCurrent, type WholeFileDesired } from '../../../../src/runners/lib/whole-file/decide.js';

const want = (over: Partial<WholeFileDesired> = {}): WholeFileDesired => ({ path: '/etc/x', ensure: 'present', content: Buffer.from('a\n'), mode: 0o644, uid: 0, gid: 0, ...over });
const file = (content: string, over: Partial<{ mode: number; uid: number; gid: number }> = {}): WholeFileCurrent => ({ type: 'file', content: Buffer.from(content), mode: 0o644, uid: 0, gid: 0, ...over });
const row = (desired: WholeFileDesired, current: WholeFileCurrent) => {
  const plan = decideWholeFile(desired, current);
  return [plan.action, plan.changed, wholeFileMessage(plan, false), wholeFileMessage(plan, true), plan.contentChanged];
};

describe('whole-file decision #once', () => {
  it('present, no file: create', () => {
    expect(row(want(), { type: 'absent' })).to.deep.equal(['write', true, 'created /etc/x', 'Would have created /etc/x', false]);
  });

  it('present, same content, mode and owner: nothing', () => {
    expect(row(want(), file('a\n'))).to.deep.equal(['none', false, '/etc/x up to date', '/etc/x up to date', false]);
  });

  it('present, other content: write, with a diff', () => {
    expect(row(want(), file('b\n'))).to.deep.equal(['write', true, 'changed /etc/x (content)', 'Would have changed /etc/x (content)', true]);
  });

  it('present, other mode or owner: write, naming each change', () => {
    expect(row(want(), file('b\n', { mode: 0o600, uid: 1000, gid: 1000 }))[2]).to.equal('changed /etc/x (content, mode 0600 -> 0644, owner 1000:1000 -> 0:0)');
    expect(row(want(), file('a\n', { mode: 0o666 }))).to.deep.equal(['write', true, 'changed /etc/x (mode 0666 -> 0644)', 'Would have changed /etc/x (mode 0666 -> 0644)', false]);
  });

  it('absent: remove a file, nothing when there is none', () => {
    expect(row(want({ ensure: 'absent', content: undefined }), file('a\n'))).to.deep.equal(['remove', true, 'removed /etc/x', 'Would have removed /etc/x', false]);
    expect(row(want({ ensure: 'absent', content: undefined }), { type: 'absent' })).to.deep.equal(['none', false, '/etc/x absent', '/etc/x absent', false]);
  });

  it('a symbolic link (a masked unit) or a directory is refused, whatever ensure is', () => {
    for (const ensure of ['present', 'absent'] as const) {
      expect(() => decideWholeFile(want({ ensure }), { type: 'symlink', target: '/dev/null' })).to.throw('/etc/x is a symbolic link (to /dev/null)');
      expect(() => decideWholeFile(want({ ensure }), { type: 'other', kind: 'a directory' })).to.throw('/etc/x is a directory, not a regular file');
    }
  });
});
