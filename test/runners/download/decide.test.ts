// The download runner's decision table (docs/download.md, "Decision"), row by row: pure, no I/O.
import { expect } from 'chai';
import { decide, downloadMessage, type DownloadCurrent, type DownloadDesired } from '../../../src/runners/download/decide.js';

const P = '/usr/local/bin/tool';
const URL = 'https://example.org/tool';
const SUM = 'a'.repeat(64);
const want = (attrs: DownloadDesired['attrs'] = {}): DownloadDesired => ({ path: P, ensure: 'present', url: URL, sha256: SUM, attrs });
const file = (sha256: string, mode = 0o755): DownloadCurrent => ({ type: 'file', sha256, attrs: { uid: 0, gid: 0, mode } });

describe('download decide #once', () => {
  it('a matching file with its attributes: nothing, nothing fetched', () => {
    const plan = decide(want({ mode: 0o755 }), file(SUM), false);
    expect(plan).to.include({ changed: false, fetch: false, remove: false, summary: `${P} matches sha256:aaaaaaaaaaaa: not fetched` });
  });

  it('a matching file with another mode: the attributes set, nothing fetched', () => {
    const plan = decide(want({ mode: 0o700, uid: 5 }), file(SUM), false);
    expect(plan).to.deep.include({ changed: true, fetch: false, attrs: { uid: 5, gid: 0, mode: 0o700 }, summary: `${P} matches sha256:aaaaaaaaaaaa: owner 0 -> 5, mode 0755 -> 0700` });
  });

  it('a file that does not match: fetched, its attributes kept unless given', () => {
    const plan = decide(want(), file('b'.repeat(64), 0o750), false);
    expect(plan).to.deep.include({ changed: true, fetch: true, attrs: { uid: 0, gid: 0, mode: 0o750 }, summary: `downloaded ${URL} to ${P} (it did not match sha256:aaaaaaaaaaaa)` });
  });

  it('a missing file: fetched with root, root, 0644 unless given', () => {
    const plan = decide(want({ mode: 0o755 }), { type: 'absent', parent: 'directory' }, false);
    expect(plan).to.deep.include({ changed: true, fetch: true, attrs: { uid: 0, gid: 0, mode: 0o755 } });
    expect(downloadMessage(plan, true)).to.equal(`Would have downloaded ${URL} to ${P}`);
  });

  it('a missing directory: an error, a warning in noop mode', () => {
    expect(() => decide(want(), { type: 'absent', parent: 'missing' }, false)).to.throw(`the directory of ${P} does not exist`);
    expect(decide(want(), { type: 'absent', parent: 'missing' }, true).warnings).to.deep.equal([`the directory of ${P} does not exist; an earlier resource may create it, otherwise the real run fails`]);
  });

  it('absent: a file removed, a missing one left', () => {
    const absent: DownloadDesired = { path: P, ensure: 'absent', attrs: {} };
    expect(decide(absent, file(SUM), false)).to.include({ changed: true, remove: true, summary: `removed ${P}` });
    expect(decide(absent, { type: 'absent', parent: 'directory' }, false)).to.include({ changed: false, summary: `${P} absent` });
  });

  it('a link or a directory: refused', () => {
    expect(() => decide(want(), { type: 'symlink', target: '/x' }, false)).to.throw('is a symbolic link (to /x)');
    expect(() => decide(want(), { type: 'other', kind: 'a directory' }, false)).to.throw(`${P} is a directory, not a regular file; govern downloads only to a regular file`);
  });
});
