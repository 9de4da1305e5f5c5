// The apt_repository decision and properties, row by row: the deb822 file, the checks of suites and
// components and of a URL key, the messages of the files decided together, and the order of the writes.
import { expect } from 'chai';
import { applyOrder } from '../../../src/runners/apt_repository/decide.js';
import { decideRepository, repositoryMessage } from '../../../src/runners/lib/repository.js';
import { aptRepositoryProperties, sourcesContent } from '../../../src/runners/apt_repository/properties.js';
import type { WholeFileCurrent, WholeFileDesired } from '../../../src/runners/lib/whole-file/decide.js';

const values = (v: Record<string, unknown>) =>
  ({ ensure: 'present', types: ['deb'], uris: ['https://deb.example.org/debian'], suites: ['bookworm'], components: ['main'], architectures: [], fingerprint: [], ...v }) as never;
const props = (v: Record<string, unknown> = {}) => aptRepositoryProperties({ name: 'example', values: values(v), stateDir: '/srv/states' });

const file = (path: string, content?: string): WholeFileDesired => ({ path, ensure: content === undefined ? 'absent' : 'present', content: content === undefined ? undefined : Buffer.from(content), mode: 0o644, uid: 0, gid: 0 });
const found = (content?: string): WholeFileCurrent => (content === undefined ? { type: 'absent' } : { type: 'file', content: Buffer.from(content), mode: 0o644, uid: 0, gid: 0 });

describe('apt_repository decision #once', () => {
  it('writes the deb822 stanza, Components and Architectures only when given, Signed-By naming the key file', () => {
    expect(sourcesContent(props({ architectures: ['amd64', 'arm64'] }), '/etc/apt/keyrings/example.asc').split('\n')).to.deep.equal([
      '# Written by govern (apt_repository "example"); a change made here is undone at its next run.',
      'Types: deb',
      'URIs: https://deb.example.org/debian',
      'Suites: bookworm',
      'Components: main',
      'Architectures: amd64 arm64',
      'Signed-By: /etc/apt/keyrings/example.asc',
      '',
    ]);
    expect(sourcesContent(props({ suites: ['./'], components: [], types: ['deb', 'deb-src'] }), undefined)).to.not.match(/Components|Signed-By|Architectures/);
  });

  it('reads signed_by as an inline key, a URL or a path against the state file\'s directory', () => {
    expect(props({ signed_by: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n...' }).key?.kind).to.equal('inline');
    expect(props({ signed_by: 'https://example.org/key.gpg', fingerprint: ['833E F205 64BA B6AB 2A82  7AD1 BBD1 14D4 5EBC 838C'] })).to.deep.include({
      key: { kind: 'url', url: 'https://example.org/key.gpg' },
      fingerprints: ['833EF20564BAB6AB2A827AD1BBD114D45EBC838C'],
    });
    expect(props({ signed_by: 'files/key.asc' }).key).to.deep.equal({ kind: 'file', path: '/srv/states/files/key.asc' });
  });

  it('refuses a URL key without a fingerprint, components for a flat suite, and none for a distribution suite', () => {
    expect(() => props({ signed_by: 'https://example.org/key.gpg' })).to.throw('signed_by is a URL, so give the key\'s fingerprint too');
    expect(() => props({ signed_by: 'ftp://example.org/key.gpg' })).to.throw('only http and https URLs are fetched');
    expect(() => props({ suites: ['./'] })).to.throw('suite ./ is a flat repository (it ends in /), which takes no components');
    expect(() => props({ components: [] })).to.throw('give components (main, ...) for suite bookworm');
  });

  it('decides the files together: one change if any changes, the changes named in order, the first file\'s words otherwise', () => {
    const created = decideRepository([{ desired: file('/s', 'x'), current: found() }, { desired: file('/k.asc', 'k'), current: found() }, { desired: file('/k.gpg'), current: found() }]);
    expect(created).to.include({ changed: true, refresh: true });
    expect(repositoryMessage(created, true, 'apt-get update')).to.equal('Would have created /s, created /k.asc');
    expect(repositoryMessage(created, false, 'apt-get update', 'pending')).to.equal('created /s, created /k.asc; apt-get update pending');
    const same = decideRepository([{ desired: file('/s', 'x'), current: found('x') }, { desired: file('/k.asc', 'k'), current: found('k') }, { desired: file('/k.gpg'), current: found() }]);
    expect(same).to.include({ changed: false, refresh: false });
    expect(repositoryMessage(same, false, 'apt-get update')).to.equal('/s up to date');
    const swapped = decideRepository([{ desired: file('/s', 'y'), current: found('x') }, { desired: file('/k.asc'), current: found('k') }, { desired: file('/k.gpg', 'g'), current: found() }]);
    expect(repositoryMessage(swapped, false, 'apt-get update', 'done')).to.equal('changed /s (content), removed /k.asc, created /k.gpg; apt-get update done');
  });

  it('writes keys before the source that names them and removes them after it', () => {
    const f = (name: string, action: string) => ({ name, plan: { action } });
    const order = (keys: ReturnType<typeof f>[], source: ReturnType<typeof f>) => applyOrder(keys, source).map((x) => x.name);
    expect(order([f('asc', 'remove'), f('gpg', 'write')], f('sources', 'write'))).to.deep.equal(['gpg', 'sources', 'asc']);
    expect(order([f('asc', 'remove'), f('gpg', 'none')], f('sources', 'remove'))).to.deep.equal(['sources', 'asc', 'gpg']);
  });
});
