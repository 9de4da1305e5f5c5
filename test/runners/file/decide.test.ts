import { expect } from 'chai';
import crypto from 'node:crypto';
import { UserError } from '../../../src/shared/errors.js';
import { decide, mismatches, planMessage, type Action, type Plan } from '../../../src/runners/file/decide.js';
import type { Attributes, Current } from '../../../src/runners/lib/file/state.js';
import type { Desired } from '../../../src/runners/file/desired.js';

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const ROOT_0644: Attributes = { uid: 0, gid: 0, mode: 0o644 };

function desired(ensure: Desired['ensure'], extra: Partial<Desired> = {}): Desired {
  return {
    path: '/srv/x',
    ensure,
    owner: { id: 0, label: 'root' },
    group: { id: 0, label: 'root' },
    mode: 0o644,
    content: ensure === 'present' ? { bytes: Buffer.from('new\n'), sha256: sha('new\n'), origin: 'contents' } : undefined,
    force: false,
    showDiff: true,
    ...extra,
  };
}

const absent: Current = { type: 'absent', parent: 'directory' };
const file = (content: string, attrs: Partial<Attributes> = {}): Current => ({
  type: 'file',
  attrs: { ...ROOT_0644, ...attrs },
  size: content.length,
  sha256: sha(content),
});
const directory = (attrs: Partial<Attributes> = {}, empty?: boolean): Current => ({ type: 'directory', attrs: { ...ROOT_0644, ...attrs }, empty });
const symlink = (target: string, attrs: Partial<Attributes> = {}): Current => ({ type: 'symlink', target, attrs: { ...ROOT_0644, mode: 0o777, ...attrs } });
const link = (target: string, extra: Partial<Desired> = {}): Desired => desired('link', { linkTarget: target, mode: undefined, owner: undefined, group: undefined, ...extra });

/** A row: the action, the noop message and the message after doing it. */
function expectRow(plan: Plan, action: Plan['action'], noopMessage: string, doneMessage: string): void {
  expect(plan.action).to.deep.equal(action);
  expect(plan.changed).to.equal(action.kind !== 'none');
  expect(planMessage(plan, true)).to.equal(noopMessage);
  expect(planMessage(plan, false)).to.equal(doneMessage);
}

describe('file decision (the seed\'s decision table, row by row) #once', () => {
  it('absent | absent -> none', () => {
    expectRow(decide(desired('absent'), absent, false), { kind: 'none' }, 'already absent', 'already absent');
  });

  it('absent | present -> remove', () => {
    expectRow(decide(desired('absent'), file('old'), false), { kind: 'remove', type: 'file', recursive: false }, 'Would have removed the file', 'removed the file');
  });

  it('absent | directory (empty) -> remove', () => {
    expectRow(decide(desired('absent'), directory({}, true), false), { kind: 'remove', type: 'directory', recursive: false }, 'Would have removed the directory', 'removed the directory');
  });

  it('absent | directory (not empty) -> an error without force, a recursive remove with it', () => {
    expect(() => decide(desired('absent'), directory({}, false), false)).to.throw(UserError, /\/srv\/x is a non-empty directory; set force = true/);
    expect(() => decide(desired('absent'), directory({}, false), true)).to.throw(UserError, /force = true/);
    expectRow(decide(desired('absent', { force: true }), directory({}, false), false), { kind: 'remove', type: 'directory', recursive: true }, 'Would have removed the directory', 'removed the directory');
  });

  it('directory | directory + matching attrs -> none', () => {
    expectRow(decide(desired('directory'), directory(), false), { kind: 'none' }, 'directory up to date', 'directory up to date');
  });

  it('directory | absent -> CreateDirectory', () => {
    expectRow(decide(desired('directory'), absent, false), { kind: 'create-directory', replacing: 'nothing' }, 'Would have created directory', 'created directory');
  });

  it('directory | present -> CreateDirectory (replacing the file)', () => {
    expectRow(decide(desired('directory'), file('old'), false), { kind: 'create-directory', replacing: 'file' }, 'Would have replaced the file with a directory', 'replaced the file with a directory');
  });

  it('directory | directory + wrong attrs -> CreateDirectory (updates attrs, in place)', () => {
    const plan = decide(desired('directory', { mode: 0o750 }), directory({ uid: 1001, gid: 1002, mode: 0o700 }), false);
    expectRow(plan, { kind: 'update-directory' }, 'Would have changed owner 1001 -> root, group 1002 -> root, mode 0700 -> 0750', 'changed owner 1001 -> root, group 1002 -> root, mode 0700 -> 0750');
  });

  it('present | present + matching all -> none', () => {
    expectRow(decide(desired('present'), file('new\n'), false), { kind: 'none' }, 'file up to date', 'file up to date');
  });

  it('present | absent -> Store', () => {
    const store: Action = { kind: 'store', replacing: 'nothing', recursive: false, keepContent: false };
    expectRow(decide(desired('present'), absent, false), store, 'Would have created the file', 'created the file');
  });

  it('present | present + wrong content -> Store', () => {
    const plan = decide(desired('present'), file('old\n'), false);
    const store: Action = { kind: 'store', replacing: 'file', recursive: false, keepContent: false };
    const change = `content sha256:${sha('old\n').slice(0, 12)} -> sha256:${sha('new\n').slice(0, 12)}`;
    expectRow(plan, store, `Would have changed ${change}`, `changed ${change}`);
    expect(plan.contentChanged).to.equal(true);
  });

  it('present | present + wrong attrs -> Store, naming each attribute with the names the runner found', () => {
    const store: Action = { kind: 'store', replacing: 'file', recursive: false, keepContent: false };
    expectRow(decide(desired('present'), file('new\n', { mode: 0o600 }), false), store, 'Would have changed mode 0600 -> 0644', 'changed mode 0600 -> 0644');
    const owned: Current = { ...file('new\n', { uid: 1001, gid: 1002 }), names: { owner: 'alice', group: 'staff' } } as Current;
    const plan = decide(desired('present'), owned, false);
    expectRow(plan, store, 'Would have changed owner alice -> root, group staff -> root', 'changed owner alice -> root, group staff -> root');
    expect(plan.contentChanged).to.equal(false);
  });

  it('checks in the seed\'s order: content, owner, group, mode', () => {
    const current: Current = file('old\n', { uid: 5, gid: 6, mode: 0o777 });
    expect(planMessage(decide(desired('present'), current, false), true)).to.match(/^Would have changed content sha256:\w+ -> sha256:\w+, owner 5 -> root, group 6 -> root, mode 0777 -> 0644$/);
  });

  it('present without content manages only the attributes, keeping the bytes', () => {
    const noContent = desired('present', { content: undefined });
    expectRow(decide(noContent, file('anything'), false), { kind: 'none' }, 'file up to date', 'file up to date');
    const plan = decide(noContent, file('anything', { mode: 0o640 }), false);
    expect(plan.action).to.deep.equal({ kind: 'store', replacing: 'file', recursive: false, keepContent: true });
    expect(decide(noContent, absent, false).action).to.deep.equal({ kind: 'store', replacing: 'nothing', recursive: false, keepContent: false });
  });

  it('present | directory -> Store over an empty directory; a non-empty one needs force', () => {
    expectRow(decide(desired('present'), directory({}, true), false), { kind: 'store', replacing: 'directory', recursive: false, keepContent: false }, 'Would have replaced the directory with a file', 'replaced the directory with a file');
    expect(() => decide(desired('present'), directory({}, false), false)).to.throw(UserError, /non-empty directory; set force = true/);
    expect(decide(desired('present', { force: true }), directory({}, false), false).action).to.deep.equal({ kind: 'store', replacing: 'directory', recursive: true, keepContent: false });
  });

  it('refuses a symlink at the path for present and directory: it is never followed', () => {
    for (const ensure of ['present', 'directory'] as const) {
      expect(() => decide(desired(ensure), symlink('/etc/shadow'), false)).to.throw(UserError, /\/srv\/x is a symbolic link \(to \/etc\/shadow\); govern does not follow or replace/);
    }
  });

  it('absent on a symlink removes the link itself', () => {
    expectRow(decide(desired('absent'), symlink('/etc/shadow'), false), { kind: 'remove', type: 'link', recursive: false }, 'Would have removed the symbolic link (to /etc/shadow)', 'removed the symbolic link (to /etc/shadow)');
  });

  it('link: created, kept, retargeted, its own owner set', () => {
    expectRow(decide(link('../b'), absent, false), { kind: 'link', replacing: 'nothing', recursive: false }, 'Would have created symbolic link to ../b', 'created symbolic link to ../b');
    expectRow(decide(link('../b'), symlink('../b'), false), { kind: 'none' }, 'symbolic link up to date', 'symbolic link up to date');
    expectRow(decide(link('/b'), symlink('/a'), false), { kind: 'link', replacing: 'link', recursive: false }, 'Would have changed target /a -> /b', 'changed target /a -> /b');
    const owned = link('/b', { owner: { id: 7, label: 'lp' } });
    expectRow(decide(owned, symlink('/b'), false), { kind: 'update-link' }, 'Would have changed owner 0 -> lp', 'changed owner 0 -> lp');
    expect(planMessage(decide(owned, symlink('/a'), false), false)).to.equal('changed target /a -> /b, owner 0 -> lp');
  });

  it('link: a file or a directory at the path is replaced only with force', () => {
    expect(() => decide(link('/b'), file('x'), false)).to.throw(UserError, /\/srv\/x is a regular file; set force = true to replace it with a symbolic link/);
    expect(() => decide(link('/b'), directory({}, true), false)).to.throw(UserError, /\/srv\/x is a directory; set force = true/);
    expect(decide(link('/b', { force: true }), file('x'), false).action).to.deep.equal({ kind: 'link', replacing: 'file', recursive: false });
    expect(decide(link('/b', { force: true }), directory({}, true), false).action).to.deep.equal({ kind: 'link', replacing: 'directory', recursive: false });
    expect(decide(link('/b', { force: true }), directory({}, false), false).action).to.deep.equal({ kind: 'link', replacing: 'directory', recursive: true });
    expect(() => decide(link('/b', { force: true }), { type: 'other', kind: 'a FIFO' }, false)).to.throw(UserError, /is a FIFO, not a regular file, directory or symbolic link/);
  });

  it('link: a missing parent is an error (a warning in noop)', () => {
    expect(() => decide(link('/b'), { type: 'absent', parent: 'missing' }, false)).to.throw(UserError, /parent directory \/srv does not exist/);
    expect(decide(link('/b'), { type: 'absent', parent: 'missing' }, true).warnings).to.have.length(1);
  });

  it('refuses a FIFO, socket or device at the path', () => {
    expect(() => decide(desired('present'), { type: 'other', kind: 'a FIFO' }, false)).to.throw(UserError, /is a FIFO, not a regular file or directory/);
  });

  it('a missing parent directory: an error, a warning in noop mode (an earlier resource may create it)', () => {
    const orphan: Current = { type: 'absent', parent: 'missing' };
    expect(() => decide(desired('present'), orphan, false)).to.throw(UserError, /parent directory \/srv does not exist \(declare it as its own file resource/);
    expect(() => decide(desired('directory'), orphan, false)).to.throw(UserError, /parent directory \/srv does not exist/);
    expect(() => decide(desired('present'), { type: 'absent', parent: 'not-directory' }, false)).to.throw(UserError, /parent of \/srv\/x is not a directory/);
    const plan = decide(desired('present'), orphan, true);
    expect(planMessage(plan, true)).to.equal('Would have created the file');
    expect(plan.warnings).to.deep.equal(['warning: parent directory /srv does not exist (declare it as its own file resource with ensure = "directory")']);
    expectRow(decide(desired('absent'), orphan, false), { kind: 'none' }, 'already absent', 'already absent');
  });
});

describe('file desired-state validation #once', () => {
  it('passes when type, content, owner, group and mode match', () => {
    expect(mismatches(desired('present'), file('new\n'))).to.deep.equal([]);
    expect(mismatches(desired('directory'), directory())).to.deep.equal([]);
    expect(mismatches(desired('absent'), absent)).to.deep.equal([]);
  });

  it('names every difference', () => {
    expect(mismatches(desired('present'), file('old\n', { uid: 1, gid: 2, mode: 0o600 }))).to.deep.equal([
      `content has sha256 ${sha('old\n')}, expected ${sha('new\n')}`,
      'owner is uid 1, expected 0',
      'group is gid 2, expected 0',
      'mode is 0600, expected 0644',
    ]);
    expect(mismatches(desired('directory'), file('x'))).to.deep.equal(['it is a regular file, expected a directory']);
    expect(mismatches(desired('present'), absent)).to.deep.equal(['it is absent, expected a regular file']);
    expect(mismatches(desired('absent'), directory())).to.deep.equal(['it is a directory, expected absent']);
    expect(mismatches(desired('present'), symlink('/x'))).to.deep.equal(['it is a symbolic link, expected a regular file']);
    expect(mismatches(link('/b'), symlink('/x'))).to.deep.equal(['it points to /x, expected /b']);
    expect(mismatches(link('/b'), file('x'))).to.deep.equal(['it is a regular file, expected a symbolic link']);
    expect(mismatches(link('/b'), symlink('/b'))).to.deep.equal([]);
  });
});
