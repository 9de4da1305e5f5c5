// The archive decision table (docs/archive.md), row by row, and the entry names it refuses.
import { expect } from 'chai';
import { decideArchive } from '../../../src/runners/archive/decide.js';
import { archiveProperties, escapingEntry, markedSha256, markerContent, type ArchiveProperties } from '../../../src/runners/archive/properties.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const p: ArchiveProperties = { target: '/opt/app', source: 'https://example.org/app.tar.gz', sha256: A, format: 'tar.gz' };

describe('archive decision #once', () => {
  it('extracts into a missing target, noop saying so', () => {
    expect(decideArchive(p, { target: 'absent' }, false)).to.deep.equal({ changed: true, message: 'extracted https://example.org/app.tar.gz into /opt/app' });
    expect(decideArchive(p, { target: 'absent' }, true).message).to.equal('Would have extracted https://example.org/app.tar.gz into /opt/app');
  });

  it('nothing when the marker names the same sha256', () => {
    expect(decideArchive(p, { target: 'directory', marked: A }, false)).to.deep.equal({ changed: false, message: '/opt/app holds the archive (sha256 aaaaaaaaaaaa)' });
  });

  it('replaces the target when the sha256 changed; an empty directory is extracted into', () => {
    expect(decideArchive(p, { target: 'directory', marked: B }, true).message).to.equal('Would have replaced /opt/app with https://example.org/app.tar.gz (sha256 bbbbbbbbbbbb -> aaaaaaaaaaaa)');
    expect(decideArchive(p, { target: 'directory', empty: true }, false).message).to.equal('extracted https://example.org/app.tar.gz into /opt/app');
  });

  it('refuses a target govern did not extract: a directory with files and no marker, or not a directory', () => {
    expect(() => decideArchive(p, { target: 'directory', empty: false }, false)).to.throw(/\/opt\/app holds files govern did not extract \(no \.govern-archive\): refusing to replace them/);
    expect(() => decideArchive(p, { target: 'directory', empty: false }, true)).to.throw(/refusing to replace them/);
    expect(() => decideArchive(p, { target: 'other' }, false)).to.throw(/\/opt\/app exists and is not a directory/);
  });

  it('creates that exists skips everything', () => {
    expect(decideArchive({ ...p, creates: '/opt/app/bin/app' }, { createsExists: true, target: 'absent' }, false)).to.deep.equal({ changed: false, message: '/opt/app/bin/app exists: /opt/app left alone' });
  });

  it('tells the format from the source\'s name, or asks for it', () => {
    const props = (source: string) => archiveProperties({ name: '/opt/x', values: { source, sha256: A.toUpperCase() } as never });
    expect(['/a.tgz', '/a.tar.xz', 'http://h/a.zip?x=1', '/a.tar'].map((s) => props(s).format)).to.deep.equal(['tar.gz', 'tar.xz', 'zip', 'tar']);
    expect(props('/a.tgz').sha256).to.equal(A);
    expect(() => props('/a.bin')).to.throw('cannot tell the format of /a.bin from its name');
  });

  it('refuses entries that would land outside the target; reads its own marker', () => {
    expect(['../x', 'a/../../x', '/etc/passwd', 'a/b', './a', 'a..b'].map(escapingEntry)).to.deep.equal([true, true, true, false, false, false]);
    expect(markedSha256(markerContent({ sha256: A, source: '/x' }))).to.equal(A);
    expect(markedSha256('junk')).to.equal(undefined);
  });
});
