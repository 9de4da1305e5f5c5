// The ordering runners ask for in their descriptions.
import { expect } from 'chai';
import { autorequireEdges, removedWhileNeeded } from '../../src/describe/autorequire.js';
import type { RunnerDescription } from '../../src/shared/description.js';
import type { Attributes } from '../../src/shared/protocol.js';
import type { Resource } from '../../src/state/resource.js';
import { description as fileDescription } from '../../src/runners/file/description.js';
import { description as mountDescription } from '../../src/runners/mount/description.js';
import { description as serviceDescription } from '../../src/runners/service/description.js';
import { description as unitDescription } from '../../src/runners/unit/description.js';

function res(ref: string, attrs: Attributes = {}): Resource {
  const [type, ...rest] = ref.split(':');
  return { ref, type, name: rest.join(':'), attrs, links: { before: [], after: [], notify: [], subscribe: [] }, tags: [], at: { file: 's.hcl' }, file: 's.hcl', index: 0, stateDir: '/' };
}

const descriptions: Record<string, RunnerDescription> = {
  file: fileDescription,
  line: { autorequire: [{ runner: 'file', key: 'path' }] },
  user: { keys: { ensure: { type: 'enum', values: ['present', 'absent'], default: 'present' } }, autorequire: [{ runner: 'group', key: 'groups' }] },
  group: {},
};
const edges = (...resources: Resource[]) => autorequireEdges(resources, (type) => descriptions[type]);

describe('autorequire #once', () => {
  it('orders a file after the file resource of its nearest managed parent directory, and only that one', () => {
    expect(edges(res('file:/etc/app/conf.d/a.conf'), res('file:/etc/app'), res('file:/etc/app/conf.d'), res('line:/etc/app/x'))).to.deep.equal([
      { from: 'file:/etc/app/conf.d', to: 'file:/etc/app/conf.d/a.conf' },
      { from: 'file:/etc/app', to: 'file:/etc/app/conf.d' },
    ]);
  });

  it('orders a mount after the file resource of its own name, or else of its nearest managed parent directory', () => {
    const d: Record<string, RunnerDescription> = { ...descriptions, mount: { autorequire: [{ runner: 'file', name_or_parent: true }] } };
    const mountEdges = (...resources: Resource[]) => autorequireEdges(resources, (type) => d[type]);
    expect(mountEdges(res('mount:/srv/data'), res('file:/srv'), res('file:/srv/data'))).to.deep.equal([
      { from: 'file:/srv/data', to: 'mount:/srv/data' },
      { from: 'file:/srv', to: 'file:/srv/data' },
    ]);
    expect(mountEdges(res('mount:/srv/data'), res('file:/srv'))).to.deep.equal([{ from: 'file:/srv', to: 'mount:/srv/data' }]);
  });

  it('orders a resource after those named by one of its keys, each value of a list', () => {
    expect(edges(res('line:motd', { path: '/etc/motd' }), res('file:/etc/motd'))).to.deep.equal([{ from: 'file:/etc/motd', to: 'line:motd' }]);
    expect(edges(res('user:alice', { groups: ['adm', 'web', 'nope'] }), res('group:adm'), res('group:web'))).to.deep.equal([
      { from: 'group:adm', to: 'user:alice' },
      { from: 'group:web', to: 'user:alice' },
    ]);
  });

  it('orders a file after the user and group that own it, and before them when they are being removed', () => {
    const file = res('file:/home/alice/x', { ensure: 'present', owner: 'alice', group: 'staff', mode: '0644' });
    expect(edges(file, res('user:alice'), res('group:staff'))).to.deep.equal([
      { from: 'user:alice', to: 'file:/home/alice/x' },
      { from: 'group:staff', to: 'file:/home/alice/x' },
    ]);
    expect(edges(file, res('user:alice', { ensure: 'absent' }))).to.deep.equal([{ from: 'file:/home/alice/x', to: 'user:alice' }]);
  });

  it('names a resource that needs a user or group the tree removes, unless it is removed too', () => {
    const needs = (...resources: Resource[]) => removedWhileNeeded(resources, (type) => descriptions[type]).map((p) => p.message);
    const file = res('file:/srv/x', { ensure: 'present', owner: 'root', group: 'staff', mode: '0644' });
    expect(needs(file, res('group:staff', { ensure: 'absent' }))).to.deep.equal([
      'file:/srv/x: group names group:staff, which this tree removes (ensure = "absent", at s.hcl): the run would leave file:/srv/x needing what no longer exists; keep group:staff, or change or remove file:/srv/x',
    ]);
    expect(needs(res('file:/srv/x', { ensure: 'absent', owner: 'alice' }), res('user:alice', { ensure: 'absent' }))).to.deep.equal([]);
    expect(needs(file, res('group:staff'))).to.deep.equal([]);
    expect(needs({ ...file, sensitive: true }, res('group:staff', { ensure: 'absent' }))[0]).to.match(/^file:\/srv\/x: group names group:<sensitive>/);
  });

  it('chains resources of one runner that give the same value of a same_key key, in definition order', () => {
    const chained = { line: { autorequire: [{ runner: 'line', same_key: 'path' }] } } as Record<string, RunnerDescription>;
    const at = (ref: string, path: string, index: number) => ({ ...res(ref, { path }), index });
    const found = autorequireEdges([at('line:c', '/etc/a', 2), at('line:a', '/etc/a', 0), at('line:other', '/etc/b', 1), at('line:b', '/etc/a', 1)], (t) => chained[t]);
    expect(found).to.deep.equal([
      { from: 'line:a', to: 'line:b' },
      { from: 'line:b', to: 'line:c' },
    ]);
  });

  it('orders a service after the unit files and drop-ins it is loaded from, an instance after its template\'s, found by name', () => {
    const units = { service: { autorequire: [{ runner: 'unit', systemd_unit_of_name: true }] } } as Record<string, RunnerDescription>;
    const found = autorequireEdges(
      [
        res('service:getty@tty1'),
        res('unit:getty@.service'),
        res('unit:getty@.service.d/x.conf'),
        res('unit:getty@tty1.service.d/y.conf'),
        res('unit:getty@tty2.service'),
        res('service:app'),
        res('unit:app.service'),
        res('unit:app.socket'),
        res('service:app.socket'),
      ].map((r, index) => ({ ...r, index })),
      (t) => units[t],
    );
    expect(found).to.deep.equal([
      { from: 'unit:getty@tty1.service.d/y.conf', to: 'service:getty@tty1' },
      { from: 'unit:getty@.service', to: 'service:getty@tty1' },
      { from: 'unit:getty@.service.d/x.conf', to: 'service:getty@tty1' },
      { from: 'unit:app.service', to: 'service:app' },
      { from: 'unit:app.socket', to: 'service:app.socket' },
    ]);
  });

  it('orders a package after every repository of the tree, as weak edges', () => {
    const d: Record<string, RunnerDescription> = { pkg: { autorequire: [{ runner: 'apt_repository', every: true }] }, apt_repository: {} };
    const found = autorequireEdges(
      [res('pkg:a'), res('apt_repository:x'), res('pkg:b'), res('apt_repository:y')].map((r, index) => ({ ...r, index })),
      (t) => d[t],
    );
    expect(found).to.deep.equal([
      { from: 'apt_repository:x', to: 'pkg:a', weak: true },
      { from: 'apt_repository:y', to: 'pkg:a', weak: true },
      { from: 'apt_repository:x', to: 'pkg:b', weak: true },
      { from: 'apt_repository:y', to: 'pkg:b', weak: true },
    ]);
  });

  it('asks nothing of a runner that does not describe itself, nor names resources outside the tree', () => {
    expect(autorequireEdges([res('file:/a'), res('file:/a/b')], () => undefined)).to.deep.equal([]);
    expect(edges(res('line:x', { path: '/nowhere' }))).to.deep.equal([]);
  });

  describe('the built-in runners: mounts, services and their units, and removals', () => {
    const real: Record<string, RunnerDescription> = { file: fileDescription, mount: mountDescription, service: serviceDescription, unit: unitDescription };
    const realEdges = (...resources: Resource[]) => autorequireEdges(resources, (type) => real[type]);

    it('a file under a mount point after the mount (written before it, the mount would hide it); the mount point itself before', () => {
      expect(realEdges(res('mount:/srv/data', { ensure: 'mounted' }), res('file:/srv/data', { ensure: 'directory' }), res('file:/srv/data/app.conf', { ensure: 'present' }))).to.have.deep.members([
        { from: 'file:/srv/data', to: 'mount:/srv/data' },
        { from: 'mount:/srv/data', to: 'file:/srv/data/app.conf' },
        { from: 'file:/srv/data', to: 'file:/srv/data/app.conf' },
      ]);
    });

    it('a mount made absent is unmounted before its mount point directory is removed', () => {
      expect(realEdges(res('mount:/srv/data', { ensure: 'absent' }), res('file:/srv/data', { ensure: 'absent' }))).to.deep.equal([{ from: 'mount:/srv/data', to: 'file:/srv/data' }]);
      expect(realEdges(res('mount:/srv/data', { ensure: 'absent' }), res('file:/srv/data', { ensure: 'directory' }))).to.deep.equal([{ from: 'file:/srv/data', to: 'mount:/srv/data' }]);
    });

    it('a service is stopped before its unit file is removed, and follows it while the unit is present', () => {
      expect(realEdges(res('service:app', { ensure: 'stopped' }), res('unit:app.service', { ensure: 'absent' }))).to.deep.equal([{ from: 'service:app', to: 'unit:app.service' }]);
      expect(realEdges(res('service:app', { ensure: 'running' }), res('unit:app.service', {}))).to.deep.equal([{ from: 'unit:app.service', to: 'service:app' }]);
    });
  });
});
