// The runner's flow (status -> decide -> act -> re-check) on an in-memory provider: which provider
// calls each case makes, and the desired-state check after a change.
import { expect } from 'chai';
import { compareVersions } from '../../../src/shared/version/index.js';
import { UserError } from '../../../src/shared/errors.js';
import type { PackageStatus } from '../../../src/runners/pkg/decide.js';
import type { Ensure } from '../../../src/runners/pkg/properties.js';
import type { InstallTarget, PackageProvider } from '../../../src/runners/pkg/provider.js';
import { applyPackage } from '../../../src/runners/pkg/runner.js';

/** A package database in memory: installs do what they say unless told to misbehave. */
class MemoryProvider implements PackageProvider {
  readonly name = 'apt' as const;
  readonly scheme = 'debian' as const;
  readonly tools = [];
  calls: string[] = [];
  installed: string | undefined;
  constructor(
    installed: string | undefined,
    private readonly available: string[],
    private readonly ignoreChanges = false,
  ) {
    this.installed = installed;
  }
  checkVersion(version: string): void {
    this.calls.push(`checkVersion ${version}`);
    if (version.endsWith('-')) throw new UserError(`bad version ${version}`);
  }
  compareToWanted = (a: string, b: string) => compareVersions('debian', a, b);
  async status(): Promise<PackageStatus> {
    this.calls.push('status');
    return this.installed === undefined ? { installed: false } : { installed: true, version: this.installed, fullVersion: this.installed };
  }
  async latestAvailable(): Promise<string | undefined> {
    this.calls.push('latestAvailable');
    return [...this.available].sort(this.compareToWanted).at(-1);
  }
  async checkInstallable(_pkg: string, target: InstallTarget): Promise<void> {
    this.calls.push(`checkInstallable ${JSON.stringify(target)}`);
    if (this.available.length === 0 || (target.kind === 'version' && !this.available.includes(target.version))) throw new UserError('not in the sources');
  }
  private async set(target: InstallTarget): Promise<void> {
    if (this.ignoreChanges) return;
    if (target.kind === 'version') this.installed = target.version;
    else if (target.kind === 'latest' || this.installed === undefined) this.installed = await this.latestAvailable();
  }
  async install(_pkg: string, target: InstallTarget): Promise<void> {
    this.calls.push(`install ${JSON.stringify(target)}`);
    await this.set(target);
  }
  async upgrade(_pkg: string, target: InstallTarget): Promise<void> {
    this.calls.push(`upgrade ${JSON.stringify(target)}`);
    await this.set(target);
  }
  async downgrade(_pkg: string, version: string): Promise<void> {
    this.calls.push(`downgrade ${version}`);
    await this.set({ kind: 'version', version });
  }
  async purge(): Promise<void> {
    this.calls.push('purge');
    if (!this.ignoreChanges) this.installed = undefined;
  }
  async uninstall(): Promise<void> {
    this.calls.push('uninstall');
    if (!this.ignoreChanges) this.installed = undefined;
  }
}

const quiet = { log: () => undefined };
const apply = (ensure: Ensure, provider: MemoryProvider, noop = false) => applyPackage({ name: 'hello', ensure }, provider, { ...quiet, noop });
const MUTATORS = /^(install|upgrade|downgrade|uninstall)/;

describe('pkg runner flow #once', () => {
  it('noop queries and reports, and never installs, upgrades, downgrades or uninstalls', async () => {
    const cases: [Ensure, string | undefined, string][] = [
      [{ kind: 'present' }, undefined, 'Would have installed'],
      [{ kind: 'absent' }, '1.0-1', 'Would have uninstalled'],
      [{ kind: 'latest' }, undefined, 'Would have installed latest'],
      [{ kind: 'latest' }, '1.0-1', 'Would have upgraded to latest'],
      [{ kind: 'version', version: '1.1-1' }, undefined, 'Would have installed version 1.1-1'],
      [{ kind: 'version', version: '1.1-1' }, '1.0-1', 'Would have upgraded to 1.1-1'],
      [{ kind: 'version', version: '1.0-1' }, '1.1-1', 'Would have downgraded to 1.0-1'],
    ];
    for (const [ensure, installed, message] of cases) {
      const provider = new MemoryProvider(installed, ['1.0-1', '1.1-1']);
      expect(await apply(ensure, provider, true)).to.deep.equal({ changed: true, message });
      expect(provider.calls.filter((c) => MUTATORS.test(c)), message).to.deep.equal([]);
      expect(provider.installed).to.equal(installed);
    }
  });

  it('noop: a package the sources lack, after a repository of its package manager that would change, is a change with a note, not a failure', async () => {
    const missing = () => new MemoryProvider(undefined, []);
    const noop = (pending: string[]) => applyPackage({ name: 'hello', ensure: { kind: 'present' } }, missing(), { ...quiet, noop: true, pending });
    expect(await noop(['file:/etc/x', 'apt_repository:docker'])).to.deep.equal({
      changed: true,
      message: 'Would have installed (not in the configured sources yet: apt_repository:docker would change them first)',
    });
    // Another package manager's repository, or none: the sources' answer stands.
    for (const pending of [['dnf_repository:epel'], []]) {
      let failure: unknown;
      await noop(pending).catch((e: unknown) => (failure = e));
      expect((failure as Error)?.message, pending.join()).to.equal('not in the sources');
    }
  });

  it('noop with latest already installed reports no change', async () => {
    const provider = new MemoryProvider('1.1-1', ['1.0-1', '1.1-1']);
    expect(await apply({ kind: 'latest' }, provider, true)).to.deep.equal({ changed: false, message: 'already at the latest version 1.1-1' });
  });

  it('latest on an installed package always runs the upgrade, and reports a change only if the version moved', async () => {
    const current = new MemoryProvider('1.1-1', ['1.0-1', '1.1-1']);
    expect(await apply({ kind: 'latest' }, current)).to.deep.equal({ changed: false, message: 'already at the latest version 1.1-1' });
    expect(current.calls).to.include('upgrade {"kind":"latest"}');
    const old = new MemoryProvider('1.0-1', ['1.0-1', '1.1-1']);
    expect(await apply({ kind: 'latest' }, old)).to.deep.equal({ changed: true, message: 'upgraded from 1.0-1 to 1.1-1' });
  });

  it('calls the provider method the decision names', async () => {
    const cases: [Ensure, string | undefined, string, string][] = [
      [{ kind: 'present' }, undefined, 'install {"kind":"any"}', 'installed 1.1-1'],
      [{ kind: 'latest' }, undefined, 'install {"kind":"latest"}', 'installed 1.1-1'],
      [{ kind: 'version', version: '1.0-1' }, undefined, 'install {"kind":"version","version":"1.0-1"}', 'installed 1.0-1'],
      [{ kind: 'version', version: '1.1-1' }, '1.0-1', 'upgrade {"kind":"version","version":"1.1-1"}', 'upgraded from 1.0-1 to 1.1-1'],
      [{ kind: 'version', version: '1.0-1' }, '1.1-1', 'downgrade 1.0-1', 'downgraded from 1.1-1 to 1.0-1'],
      [{ kind: 'absent' }, '1.0-1', 'uninstall', 'uninstalled 1.0-1'],
    ];
    for (const [ensure, installed, call, message] of cases) {
      const provider = new MemoryProvider(installed, ['1.0-1', '1.1-1']);
      expect(await apply(ensure, provider)).to.deep.equal({ changed: true, message });
      expect(provider.calls.filter((c) => MUTATORS.test(c))).to.deep.equal([call]);
    }
  });

  it('fails when the package did not reach the desired state after the change', async () => {
    for (const [ensure, installed] of [
      [{ kind: 'present' }, undefined],
      [{ kind: 'absent' }, '1.0-1'],
      [{ kind: 'latest' }, undefined],
      [{ kind: 'version', version: '1.1-1' }, '1.0-1'],
    ] as [Ensure, string | undefined][]) {
      const provider = new MemoryProvider(installed, ['1.0-1', '1.1-1'], true);
      let error: unknown;
      await apply(ensure, provider).catch((e) => (error = e));
      expect(error, JSON.stringify(ensure)).to.be.instanceOf(UserError);
      expect((error as Error).message).to.match(/^hello did not reach the desired state: wanted (present|absent|latest|1\.1-1), apt reports/);
    }
  });

  it('checks the version\'s syntax before anything else', async () => {
    const provider = new MemoryProvider('1.0-1', []);
    let error: unknown;
    await apply({ kind: 'version', version: '1.0-' }, provider).catch((e) => (error = e));
    expect(error).to.be.instanceOf(UserError);
    expect(provider.calls).to.deep.equal(['checkVersion 1.0-']);
  });
});
