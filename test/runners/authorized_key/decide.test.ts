// The authorized_key decision table (docs/authorized_key.md), row by row, and StrictModes' rules.
import { expect } from 'chai';
import { decideKeys, keyOfLine, keysMessage, type WantedKey } from '../../../src/runners/authorized_key/decide.js';
import { KEY_TYPES } from '../../../src/runners/authorized_key/description.js';
import { homeProblem, strictAttributes } from '../../../src/runners/authorized_key/strict-modes.js';

const LINE = 'ssh-ed25519 AAAAkey admin';
const want = (over: Partial<WantedKey> = {}): WantedKey => ({ ensure: 'present', key: 'AAAAkey', line: LINE, exclusive: false, ...over });
const file = (...texts: string[]) => texts.map((text) => ({ text, key: keyOfLine(text, KEY_TYPES) }));
const row = (w: WantedKey, ...texts: string[]) => {
  const plan = decideKeys(w, file(...texts));
  return [plan.changed, plan.lines, keysMessage(plan, false), keysMessage(plan, true)];
};

describe('authorized_key decision #once', () => {
  it('finds a line\'s key after its options, whatever its comment; none in comments and blanks', () => {
    expect(keyOfLine('from="10.0.0.1",no-pty ssh-rsa AAAAB3 x y', KEY_TYPES)).to.equal('AAAAB3');
    expect(keyOfLine('  ssh-ed25519 AAAAC3', KEY_TYPES)).to.equal('AAAAC3');
    expect(keyOfLine('# ssh-ed25519 AAAAC3', KEY_TYPES)).to.equal(undefined);
    expect(keyOfLine('', KEY_TYPES)).to.equal(undefined);
  });

  it('present, missing: appended after the other lines', () => {
    expect(row(want(), '# keys', 'ssh-rsa B other')).to.deep.equal([true, ['# keys', 'ssh-rsa B other', LINE], 'added the key', 'Would have added the key']);
  });

  it('present, the same line: nothing', () => {
    expect(row(want(), LINE)).to.deep.equal([false, undefined, 'key present', 'key present']);
  });

  it('present, other options or comment: its line replaced in place; repeated lines of it removed', () => {
    expect(row(want(), 'no-pty ssh-ed25519 AAAAkey old', 'ssh-rsa B x')).to.deep.equal([true, [LINE, 'ssh-rsa B x'], "updated the key's line (options or comment)", "Would have updated the key's line (options or comment)"]);
    expect(row(want(), 'ssh-rsa B x', LINE, LINE)[1]).to.deep.equal(['ssh-rsa B x', LINE]);
  });

  it('absent: every line of the key removed; nothing when there is none', () => {
    expect(row(want({ ensure: 'absent', line: undefined }), LINE, 'ssh-rsa B x', 'no-pty ' + LINE)).to.deep.equal([true, ['ssh-rsa B x'], "removed the key's 2 lines", "Would have removed the key's 2 lines"]);
    expect(row(want({ ensure: 'absent', line: undefined }), 'ssh-rsa B x')).to.deep.equal([false, undefined, 'key absent', 'key absent']);
  });

  it('exclusive: every other key removed, comments kept; nothing when it is alone', () => {
    expect(row(want({ exclusive: true }), '# keys', 'ssh-rsa B x', LINE, 'ecdsa-sha2-nistp256 C y')).to.deep.equal([
      true,
      ['# keys', LINE],
      'removed 2 other keys (exclusive)',
      'Would have removed 2 other keys (exclusive)',
    ]);
    expect(row(want({ exclusive: true }), '# keys', LINE)[0]).to.equal(false);
  });

  it('StrictModes: the user\'s, writable by no one else; a home others can write is a warning', () => {
    expect(strictAttributes({ uid: 1000, gid: 1000, mode: 0o700 }, { uid: 1000, gid: 1000 })).to.deep.equal({ changes: [] });
    expect(strictAttributes({ uid: 1000, gid: 1000, mode: 0o755 }, { uid: 1000, gid: 1000 })).to.deep.equal({ changes: [] });
    expect(strictAttributes({ uid: 0, gid: 0, mode: 0o777 }, { uid: 1000, gid: 1001 })).to.deep.equal({ set: { uid: 1000, gid: 1001, mode: 0o755 }, changes: ['owner 0 -> 1000', 'mode 0777 -> 0755'] });
    expect(homeProblem('/home/a', { uid: 1000, gid: 1000, mode: 0o775 })).to.contain('/home/a is writable by its group or others (mode 0775)');
    expect(homeProblem('/home/a', { uid: 1000, gid: 1000, mode: 0o755 })).to.equal(undefined);
  });
});
