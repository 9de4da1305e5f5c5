// The pkg runner's arguments as it reads them: checked against its description.
import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { parseRequest } from '../../../src/runners/kit/index.js';
import { packageProperties } from '../../../src/runners/pkg/properties.js';
import { pkgRunner } from '../../../src/runners/pkg/runner.js';

const props = (name: string, pairs: Record<string, string> = {}) =>
  packageProperties(parseRequest(pkgRunner, [name, ...Object.entries(pairs).map(([k, v]) => `${k}=${v}`)], {}, () => undefined));

describe('pkg properties #once', () => {
  it('reads ensure: present, absent, latest or a version; present by default', () => {
    expect(props('vim').ensure).to.deep.equal({ kind: 'present' });
    expect(props('vim', { ensure: 'present' }).ensure).to.deep.equal({ kind: 'present' });
    expect(props('vim', { ensure: 'absent' }).ensure).to.deep.equal({ kind: 'absent' });
    expect(props('vim', { ensure: 'latest' }).ensure).to.deep.equal({ kind: 'latest' });
    expect(props('nginx', { ensure: '1.24.0-1.el9' }).ensure).to.deep.equal({ kind: 'version', version: '1.24.0-1.el9' });
    expect(props('zsh', { ensure: '1:5.9-8+b18' }).ensure).to.deep.equal({ kind: 'version', version: '1:5.9-8+b18' });
  });

  it('takes govern\'s README spelling: state = installed | removed', () => {
    expect(props('emacs', { state: 'installed' }).ensure).to.deep.equal({ kind: 'present' });
    expect(props('emacs', { state: 'removed' }).ensure).to.deep.equal({ kind: 'absent' });
    expect(props('emacs', { state: 'latest' }).ensure).to.deep.equal({ kind: 'latest' });
    expect(() => props('emacs', { state: 'installed', ensure: 'present' })).to.throw(UserError, /give only one of ensure and state/);
  });

  it('reads the provider, and refuses an unknown one', () => {
    expect(props('vim', { provider: 'apt' }).provider).to.equal('apt');
    expect(props('vim', { provider: 'dnf' }).provider).to.equal('dnf');
    expect(props('vim').provider).to.equal(undefined);
    expect(() => props('vim', { provider: 'yum' })).to.throw(UserError, /provider "yum" is not one of apt, dnf/);
  });

  it('refuses names outside the seed\'s characters, naming the character', () => {
    expect(props('libc6:amd64').name).to.equal('libc6:amd64');
    expect(props('g++').name).to.equal('g++');
    for (const [bad, ch] of [['vim;id', '";"'], ['a|b', '"|"'], ['a&b', '"&"'], ['$(id)', '"\\$"'], ['a b', 'space'], ['"a"', '"\\\\""'], ['`id`', '"`"'], ['a/b', '"/"']]) {
      expect(() => props(bad), bad).to.throw(UserError, new RegExp(`is not a package name .*character ${ch} is not allowed`));
    }
    expect(() => props('-oDebug')).to.throw(UserError, /must not start with "-"/);
  });

  it('refuses versions with dangerous characters, naming the character, and words it nearly is', () => {
    expect(() => props('vim', { ensure: '1.0;reboot' })).to.throw(UserError, /ensure "1.0;reboot" is not one of .* \(character ";" is not allowed\)/);
    expect(() => props('vim', { ensure: '1.0 2' })).to.throw(UserError, /character space/);
    expect(() => props('vim', { state: '1.0*' })).to.throw(UserError, /state "1.0\*" is not .*character "\*"/);
    expect(() => props('vim', { ensure: '' })).to.throw(UserError, /ensure "" is not .*\(it is empty\)/);
    expect(() => props('vim', { ensure: '-1.0' })).to.throw(UserError, /must not start with "-"/);
    expect(() => props('vim', { ensure: 'presnt' })).to.throw(UserError, /ensure "presnt" is not one of present, installed, absent, removed, purged, latest, or a version \(did you mean "present"\?\)/);
  });

  it('refuses unknown keys', () => {
    expect(() => props('vim', { version: '1.0' })).to.throw(UserError, /unknown key "version" \(pkg takes ensure, state, provider\)/);
    expect(() => props('vim', { ensur: '1.0' })).to.throw(UserError, /unknown key "ensur" \(did you mean "ensure"\?\)/);
  });
});
