// The files the built-in runners write under a path made of their name and keys (`writes` in their
// descriptions) count as managed: a directory's purge keeps each, and the file runner, given the
// list govern computes, removes only what no resource writes (noop naming only that). Each case
// purges a scratch copy of the runner's directory, since the real ones are the machine's.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { localHost, managedChildren } from '../../src/apply/managed-children.js';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import type { RunnerDescription } from '../../src/shared/description.js';
import type { HostLookups } from '../../src/shared/written-paths.js';
import type { Resource } from '../../src/state/resource.js';
import { runnerOutcome } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** Every built-in runner's description (src/runners/NAME/description.ts), by name: read before the cases. */
const descriptions: Record<string, RunnerDescription> = {};
const resource = (type: string, name: string, attrs: Resource['attrs'] = {}) => ({ ref: `${type}:${name}`, type, name, attrs }) as unknown as Resource;
const host: HostLookups = {
  env: { HOME: '/home/runner-home', XDG_CONFIG_HOME: '/srv/xdg' },
  homeOf: (user) => ({ alice: '/home/alice' })[user],
  ownHome: () => '/root',
};

/** The managed names govern gives `file "DIR" { purge = true }` beside the resource. */
function keptIn(dir: string, ...resources: Resource[]): string[] {
  const purge = resource('file', dir, { ensure: 'directory', purge: true });
  return managedChildren([purge, ...resources], (runner) => descriptions[runner], host).get(purge.ref)!;
}

/** Each runner, a resource of it, the directory it writes in, and the entry that must stay there. */
const cases: [string, Resource, string, string][] = [
  ['cron', resource('cron', 'backup', { command: '/usr/local/bin/backup' }), '/etc/cron.d', 'backup'],
  ['cron (provider = "systemd")', resource('cron', 'backup', { command: 'b', provider: 'systemd' }), '/etc/systemd/system', 'backup.service\nbackup.timer\ntimers.target.wants'],
  ['cron (provider = "systemd", scope = "user")', resource('cron', 'backup', { command: 'b', provider: 'systemd', scope: 'user' }), '/srv/xdg/systemd/user', 'backup.service\nbackup.timer\ntimers.target.wants'],
  ['unit', resource('unit', 'app.service', { content: '[Service]\n' }), '/etc/systemd/system', 'app.service'],
  ['unit (a drop-in)', resource('unit', 'app.service.d/limits.conf', { content: '[Service]\n' }), '/etc/systemd/system', 'app.service.d'],
  ['unit (scope = "user", no XDG_CONFIG_HOME)', resource('unit', 'app.service', { scope: 'user' }), '/home/runner-home/.config/systemd/user', 'app.service'],
  ['sysctl', resource('sysctl', 'net.ipv4.conf.eth0/100.rp_filter', { value: '1' }), '/etc/sysctl.d', '90-govern-net.ipv4.conf.eth0.100.rp_filter.conf'],
  ['sysctl (file given)', resource('sysctl', 'vm.swappiness', { value: '1', file: '/etc/sysctl.d/50-mine.conf' }), '/etc/sysctl.d', '50-mine.conf\n90-govern-vm.swappiness.conf'],
  ['kernel_module', resource('kernel_module', 'br_netfilter'), '/etc/modules-load.d', 'govern-br_netfilter.conf'],
  ['apt_repository (sources)', resource('apt_repository', 'extras', { uris: ['https://deb.example.org'], suites: ['stable'] }), '/etc/apt/sources.list.d', 'extras.asc\nextras.gpg\nextras.sources'],
  ['apt_repository (keys)', resource('apt_repository', 'extras'), '/etc/apt/keyrings', 'extras.asc\nextras.gpg\nextras.sources'],
  ['apt_repository (an APT_CONFIG elsewhere)', resource('apt_repository', 'extras'), '/srv/chroot/etc/apt/sources.list.d', 'extras.asc\nextras.gpg\nextras.sources'],
  ['dnf_repository', resource('dnf_repository', 'extras', { baseurl: ['https://rpm.example.org'] }), '/etc/yum.repos.d', 'extras.repo'],
  ['authorized_key', resource('authorized_key', 'alice@laptop', { user: 'alice', type: 'ssh-ed25519', key: 'AAAA' }), '/home/alice/.ssh', 'authorized_keys'],
  ['authorized_key (the home)', resource('authorized_key', 'alice@laptop', { user: 'alice', type: 'ssh-ed25519', key: 'AAAA' }), '/home/alice', '.ssh'],
  ['mount (fstab by default)', resource('mount', '/srv/data', { device: 'tmpfs', fstype: 'tmpfs' }), '/etc', 'fstab'],
  ['mount (the mount point)', resource('mount', '/srv/data/disk', { device: 'tmpfs', fstype: 'tmpfs' }), '/srv/data', 'disk'],
  ['archive', resource('archive', '/opt/tool/current', { source: '/srv/tool.tar.gz', sha256: '0'.repeat(64) }), '/opt/tool', 'current'],
  ['git', resource('git', '/opt/src/app', { source: 'https://git.example.org/app.git' }), '/opt/src', 'app'],
];

describe('managed children: the files runners write (writes in their descriptions) #once', function () {
  this.timeout(60_000);
  before(async () => {
    for (const name of BUILT_IN_RUNNERS) {
      descriptions[name] = ((await import(`../../src/runners/${name}/description.js`)) as { description: RunnerDescription }).description;
    }
  });

  for (const [what, r, dir, kept] of cases) {
    it(`${what}: a purge of ${dir} keeps ${kept.split('\n').join(', ')}, and the file runner removes only the stray entry`, async () => {
      const names = keptIn(dir, r);
      expect(names).to.deep.equal(kept.split('\n'));

      const scratch = path.join(tempDir('govern-purge-writes-'), 'd');
      writeFile(path.join(scratch, names[0]), 'managed\n');
      writeFile(path.join(scratch, 'stray.conf'), 'unmanaged\n');
      const args = [scratch, 'ensure=directory', 'owner=root', 'group=root', 'mode=0755', 'purge=true'];
      const env = { GOVERN_MANAGED_CHILDREN: names.join('\n') };
      const noop = await runnerOutcome('file', args, { env: { ...env, GOVERN_NOOP: '1' } });
      expect(noop.message).to.equal('Would have removed 1 entry not managed: stray.conf');
      const real = await runnerOutcome('file', args, { env });
      expect(real).to.deep.include({ code: 0, changed: true, message: 'removed 1 entry not managed: stray.conf' });
      expect(fs.readdirSync(scratch)).to.deep.equal([names[0]]);
    });
  }

  it('a condition that does not hold writes nothing there: a cron job of provider = "cron" keeps nothing in /etc/systemd/system', () => {
    expect(keptIn('/etc/systemd/system', resource('cron', 'backup', { command: 'b' }))).to.deep.equal([]);
    expect(keptIn('/etc/cron.d', resource('cron', 'backup', { command: 'b', provider: 'systemd' }))).to.deep.equal([]);
  });

  it('a user the accounts database does not know has no home, and so nothing kept', () => {
    expect(keptIn('/home/bob/.ssh', resource('authorized_key', 'k', { user: 'bob', key: 'AAAA' }))).to.deep.equal([]);
  });

  it('looks homes up in the accounts database (getent), and $HOME for the user govern runs as', () => {
    const local = localHost({ HOME: '/somewhere' });
    expect(local.homeOf('root')).to.equal('/root');
    expect(local.homeOf('no-such-user-govern-purge')).to.equal(undefined);
    const purge = resource('file', '/somewhere/.config/systemd/user', { ensure: 'directory', purge: true });
    const got = managedChildren([purge, resource('unit', 'x.timer', { scope: 'user' })], (runner) => descriptions[runner], local);
    expect(got.get(purge.ref)).to.deep.equal(['x.timer']);
  });
});
