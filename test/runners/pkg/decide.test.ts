// package-type.txt's decision table, row by row, with its noop messages.
import { expect } from 'chai';
import { compareVersions } from '../../../src/shared/version/index.js';
import { decide, describeChange, isDesiredState, type PackageStatus } from '../../../src/runners/pkg/decide.js';
import type { Ensure } from '../../../src/runners/pkg/properties.js';

const debian = (a: string, b: string) => compareVersions('debian', a, b);
const absent: PackageStatus = { installed: false };
const configFiles: PackageStatus = { installed: false, state: 'config-files', version: '1.1-1' };
const at = (version: string): PackageStatus => ({ installed: true, version, fullVersion: version, arch: 'all' });
const present: Ensure = { kind: 'present' };
const gone: Ensure = { kind: 'absent' };
const latest: Ensure = { kind: 'latest' };
const version = (v: string): Ensure => ({ kind: 'version', version: v });

describe('pkg decision #once', () => {
  describe('the seed\'s decision table', () => {
    it('ensure: present, installed (any version) -> none', () => {
      expect(decide(present, at('1.0-1'), debian)).to.deep.equal({ action: { kind: 'none' }, message: 'already installed 1.0-1' });
    });
    it('ensure: present, absent -> install ("Would have installed")', () => {
      expect(decide(present, absent, debian)).to.deep.equal({ action: { kind: 'install' }, message: 'Would have installed' });
    });
    it('ensure: absent, absent -> none', () => {
      expect(decide(gone, absent, debian)).to.deep.equal({ action: { kind: 'none' }, message: 'already absent' });
    });
    it('ensure: absent, installed -> uninstall ("Would have uninstalled")', () => {
      expect(decide(gone, at('1.0-1'), debian)).to.deep.equal({ action: { kind: 'uninstall' }, message: 'Would have uninstalled' });
    });
    it('ensure: latest, absent -> install latest ("Would have installed latest")', () => {
      expect(decide(latest, absent, debian)).to.deep.equal({ action: { kind: 'install-latest' }, message: 'Would have installed latest' });
    });
    it('ensure: latest, installed -> upgrade, always ("Would have upgraded to latest")', () => {
      expect(decide(latest, at('9.9-9'), debian)).to.deep.equal({ action: { kind: 'upgrade-latest' }, message: 'Would have upgraded to latest' });
    });
    it('ensure: <version>, same version -> none', () => {
      expect(decide(version('1.1-1'), at('1.1-1'), debian)).to.deep.equal({ action: { kind: 'none' }, message: 'already installed 1.1-1' });
      // Same version, spelled differently.
      expect(decide(version('0:1.1-1'), at('1.1-1'), debian).action).to.deep.equal({ kind: 'none' });
    });
    it('ensure: <version>, older version -> upgrade ("Would have upgraded to X")', () => {
      expect(decide(version('1.1-1'), at('1.0-1'), debian)).to.deep.equal({ action: { kind: 'upgrade', version: '1.1-1' }, message: 'Would have upgraded to 1.1-1' });
    });
    it('ensure: <version>, newer version -> downgrade ("Would have downgraded to X")', () => {
      expect(decide(version('1.0-1'), at('2.0~rc1-1'), debian)).to.deep.equal({
        action: { kind: 'downgrade', version: '1.0-1' },
        message: 'Would have downgraded to 1.0-1',
      });
    });
    it('ensure: <version>, absent -> install ("Would have installed version X")', () => {
      expect(decide(version('1.1-1'), absent, debian)).to.deep.equal({
        action: { kind: 'install-version', version: '1.1-1' },
        message: 'Would have installed version 1.1-1',
      });
    });
  });

  it('compares with the provider\'s scheme: tilde and epoch', () => {
    expect(decide(version('2.0~rc1-1'), at('2.0-1'), debian).action.kind).to.equal('downgrade');
    expect(decide(version('1:0.5-1'), at('2.0-1'), debian).action.kind).to.equal('upgrade');
  });

  it('treats a package that is not fully installed (config-files, half-installed) as absent', () => {
    expect(decide(present, configFiles, debian).action).to.deep.equal({ kind: 'install' });
    expect(decide(version('1.1-1'), configFiles, debian).action).to.deep.equal({ kind: 'install-version', version: '1.1-1' });
    expect(decide(gone, configFiles, debian).action).to.deep.equal({ kind: 'none' });
  });

  it('purged: nothing when dpkg has no record, a purge when installed or when configuration files are left', () => {
    const purged: Ensure = { kind: 'purged' };
    expect(decide(purged, absent, debian)).to.deep.equal({ action: { kind: 'none' }, message: 'already absent' });
    expect(decide(purged, at('1.0-1'), debian)).to.deep.equal({ action: { kind: 'purge' }, message: 'Would have purged' });
    expect(decide(purged, configFiles, debian)).to.deep.equal({ action: { kind: 'purge' }, message: 'Would have purged the configuration files left (config-files)' });
    expect(isDesiredState(purged, configFiles, debian)).to.equal(false);
    expect(describeChange(configFiles, absent, debian)).to.equal('purged the configuration files left (config-files)');
  });

  it('in noop, knowing the newest available version, reports latest as in sync when it is installed', () => {
    expect(decide(latest, at('1:0.5-1'), debian, { latestAvailable: '1:0.5-1' })).to.deep.equal({
      action: { kind: 'none' },
      message: 'already at the latest version 1:0.5-1',
    });
    expect(decide(latest, at('1.1-1'), debian, { latestAvailable: '1:0.5-1' }).action).to.deep.equal({ kind: 'upgrade-latest' });
    expect(decide(latest, absent, debian, { latestAvailable: '1:0.5-1' }).action).to.deep.equal({ kind: 'install-latest' });
  });

  describe('desired state validation (the seed\'s isDesiredState)', () => {
    it('present and latest: anything installed', () => {
      expect(isDesiredState(present, at('1.0-1'), debian)).to.equal(true);
      expect(isDesiredState(latest, at('0.1-1'), debian)).to.equal(true);
      expect(isDesiredState(present, configFiles, debian)).to.equal(false);
      expect(isDesiredState(latest, absent, debian)).to.equal(false);
    });
    it('absent: not installed', () => {
      expect(isDesiredState(gone, absent, debian)).to.equal(true);
      expect(isDesiredState(gone, configFiles, debian)).to.equal(true);
      expect(isDesiredState(gone, at('1.0-1'), debian)).to.equal(false);
    });
    it('a version: that version, compared by the scheme', () => {
      expect(isDesiredState(version('1.0-1'), at('1.0-1'), debian)).to.equal(true);
      expect(isDesiredState(version('1.0-1'), at('1.0-2'), debian)).to.equal(false);
      expect(isDesiredState(version('1.0-1'), absent, debian)).to.equal(false);
    });
  });

  it('describes what a real run changed', () => {
    expect(describeChange(absent, at('1.0-1'), debian)).to.equal('installed 1.0-1');
    expect(describeChange(at('1.0-1'), at('1.1-1'), debian)).to.equal('upgraded from 1.0-1 to 1.1-1');
    expect(describeChange(at('1:0.5-1'), at('1.0-1'), debian)).to.equal('downgraded from 1:0.5-1 to 1.0-1');
    expect(describeChange(at('1.0-1'), absent, debian)).to.equal('uninstalled 1.0-1');
    expect(describeChange(at('1.0-1'), at('1.0-1'), debian)).to.equal('already installed 1.0-1');
    // An epoch outranks the version: 1:0.5-1 is newer than 1.1-1.
    expect(describeChange(at('1.1-1'), at('1:0.5-1'), (a, b) => compareVersions('rpm', a, b))).to.equal('upgraded from 1.1-1 to 1:0.5-1');
  });
});
