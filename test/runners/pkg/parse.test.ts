// The providers' output parsers, on the tools' real output formats.
import { expect } from 'chai';
import { parseCandidate, parseDpkgQuery } from '../../../src/runners/pkg/provider-apt.js';
import { parseRpmQuery } from '../../../src/runners/pkg/provider-dnf.js';
import { parseFactOutput } from '../../../src/runners/pkg/providers.js';

describe('pkg provider output parsing #once', () => {
  it('dpkg-query: only "installed" is present', () => {
    expect(parseDpkgQuery('zsh 5.9-8+b18 amd64 installed\n')).to.deep.equal({ installed: true, version: '5.9-8+b18', fullVersion: '5.9-8+b18', arch: 'amd64' });
    for (const state of ['config-files', 'half-installed', 'half-configured', 'unpacked', 'triggers-awaited']) {
      expect(parseDpkgQuery(`foo 1.0-1 all ${state}\n`), state).to.deep.equal({ installed: false, state, version: '1.0-1' });
    }
    expect(parseDpkgQuery('foo  amd64 not-installed\n')).to.deep.equal({ installed: false });
  });

  it('dpkg-query: a name matching several architectures is present if one is installed', () => {
    expect(parseDpkgQuery('libc6 2.36-9 i386 config-files\nlibc6 2.36-9 amd64 installed\n')).to.deep.include({ installed: true, arch: 'amd64' });
  });

  it('apt-cache policy: the Candidate line', () => {
    const out = 'zsh:\n  Installed: 5.9-8+b18\n  Candidate: 5.9-8+b18\n  Version table:\n *** 5.9-8+b18 500\n        500 http://deb.debian.org/debian trixie/main amd64 Packages\n        100 /var/lib/dpkg/status\n';
    expect(parseCandidate(out)).to.equal('5.9-8+b18');
    expect(parseCandidate('foo:\n  Installed: (none)\n  Candidate: (none)\n  Version table:\n')).to.equal(undefined);
    expect(parseCandidate('')).to.equal(undefined);
  });

  it('rpm -q: VERSION-RELEASE, with a non-zero epoch kept in the full version', () => {
    expect(parseRpmQuery('zsh 0 5.8 9.el9 x86_64\n')).to.deep.equal({ installed: true, version: '5.8-9.el9', fullVersion: '5.8-9.el9', arch: 'x86_64' });
    expect(parseRpmQuery('foo 1 0.5 1 noarch\n')).to.deep.equal({ installed: true, version: '0.5-1', fullVersion: '1:0.5-1', arch: 'noarch' });
  });

  it('rpm -q: several installed instances (kernels): the newest', () => {
    const out = 'kernel 0 5.14.0 427.el9 x86_64\nkernel 0 5.14.0 503.el9 x86_64\nkernel 0 5.14.0 70.el9 x86_64\n';
    expect(parseRpmQuery(out)).to.deep.include({ version: '5.14.0-503.el9' });
  });

  it('the os/family fact, printed alone or as a listing', () => {
    expect(parseFactOutput('debian\n', 'os/family')).to.equal('debian');
    expect(parseFactOutput('os/family       RedHat\n', 'os/family')).to.equal('redhat');
    expect(parseFactOutput('os/family=debian\n', 'os/family')).to.equal('debian');
    expect(parseFactOutput('', 'os/family')).to.equal(undefined);
  });
});
