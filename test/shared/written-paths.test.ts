import { expect } from 'chai';
import type { RunnerDescription } from '../../src/shared/description.js';
import { writtenPaths, type HostLookups } from '../../src/shared/written-paths.js';

const host: HostLookups = { env: { HOME: '/home/me', REL: 'relative/dir', ABS: '/abs' }, homeOf: (u) => (u === 'alice' ? '/home/alice' : undefined), ownHome: () => '/root' };
const expand = (path: string, name: string, attrs: Record<string, unknown> = {}, keys: RunnerDescription['keys'] = {}, env?: NodeJS.ProcessEnv) =>
  writtenPaths({ name, attrs }, { keys, writes: [{ path }] }, env ? { ...host, env } : host, () => true);

describe('written paths (writes templates) #once', () => {
  it('substitutes the name and keys, a list key giving one path per element, a default when not given', () => {
    expect(expand('/etc/x/{name}.conf', 'a')).to.deep.equal([{ path: '/etc/x/a.conf' }]);
    expect(expand('/d/{k}/{name}', 'n', { k: ['one', 'two'] })).to.deep.equal([{ path: '/d/one/n' }, { path: '/d/two/n' }]);
    expect(expand('{fstab}', 'n', {}, { fstab: { type: 'path', default: '/etc/fstab' } })).to.deep.equal([{ path: '/etc/fstab' }]);
  });

  it('gives no path when a value is missing, or an environment variable is unset or not absolute', () => {
    expect(expand('/d/{k}', 'n')).to.deep.equal([]);
    expect(expand('{$NOPE}/x', 'n')).to.deep.equal([]);
    expect(expand('{$REL}/x', 'n')).to.deep.equal([]);
    expect(expand('{$ABS}/x/{name}', 'n')).to.deep.equal([{ path: '/abs/x/n' }]);
  });

  it('filters a value: slash_to_dot', () => {
    expect(expand('/etc/sysctl.d/90-{name|slash_to_dot}.conf', 'net.a/b.c')).to.deep.equal([{ path: '/etc/sysctl.d/90-net.a.b.c.conf' }]);
    expect(expand('/etc/u/{name}', 'app.service.d/x.conf')).to.deep.equal([{ path: '/etc/u/app.service.d/x.conf' }]);
  });

  it('homes: ~ is $HOME, else the own account\'s; ~{KEY} the account\'s, none for an unknown account', () => {
    expect(expand('~/.config/{name}', 'x')).to.deep.equal([{ path: '/home/me/.config/x' }]);
    expect(expand('~/.config/{name}', 'x', {}, {}, {})).to.deep.equal([{ path: '/root/.config/x' }]);
    expect(expand('~{user}/.ssh/authorized_keys', 'k', { user: 'alice' })).to.deep.equal([{ path: '/home/alice/.ssh/authorized_keys' }]);
    expect(expand('~{user}/.ssh/authorized_keys', 'k', { user: 'bob' })).to.deep.equal([]);
  });

  it('*/NAME: a file name in any directory', () => {
    expect(expand('*/{name}.sources', 'extras')).to.deep.equal([{ anywhere: 'extras.sources' }]);
  });

  it('only the entries whose condition holds', () => {
    const description: RunnerDescription = { writes: [{ path: '/a/{name}', when: { p: ['x'] } }, { path: '/b/{name}' }] };
    expect(writtenPaths({ name: 'n', attrs: {} }, description, host, (when) => when === undefined)).to.deep.equal([{ path: '/b/n' }]);
  });
});
