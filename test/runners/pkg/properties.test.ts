import { expect } from 'chai';
import { Params } from '../../../src/shared/protocol.js';
import { ValidationError } from '../../../src/shared/validate.js';
import { parseProperties } from '../../../src/runners/pkg/properties.js';

const params = (pairs: Record<string, string>) => new Params(Object.entries(pairs));

describe('pkg properties', () => {
  it('reads ensure: present, absent, latest or a version; present by default', () => {
    expect(parseProperties('vim', params({})).ensure).to.deep.equal({ kind: 'present' });
    expect(parseProperties('vim', params({ ensure: 'present' })).ensure).to.deep.equal({ kind: 'present' });
    expect(parseProperties('vim', params({ ensure: 'absent' })).ensure).to.deep.equal({ kind: 'absent' });
    expect(parseProperties('vim', params({ ensure: 'latest' })).ensure).to.deep.equal({ kind: 'latest' });
    expect(parseProperties('nginx', params({ ensure: '1.24.0-1.el9' })).ensure).to.deep.equal({ kind: 'version', version: '1.24.0-1.el9' });
    expect(parseProperties('zsh', params({ ensure: '1:5.9-8+b18' })).ensure).to.deep.equal({ kind: 'version', version: '1:5.9-8+b18' });
  });

  it('takes govern\'s README spelling: state = installed | removed', () => {
    expect(parseProperties('emacs', params({ state: 'installed' })).ensure).to.deep.equal({ kind: 'present' });
    expect(parseProperties('emacs', params({ state: 'removed' })).ensure).to.deep.equal({ kind: 'absent' });
    expect(parseProperties('emacs', params({ state: 'latest' })).ensure).to.deep.equal({ kind: 'latest' });
    expect(() => parseProperties('emacs', params({ state: 'installed', ensure: 'present' }))).to.throw(ValidationError, /either ensure or state/);
  });

  it('reads the provider, and refuses an unknown one', () => {
    expect(parseProperties('vim', params({ provider: 'apt' })).provider).to.equal('apt');
    expect(parseProperties('vim', params({ provider: 'dnf' })).provider).to.equal('dnf');
    expect(parseProperties('vim', params({})).provider).to.equal(undefined);
    expect(() => parseProperties('vim', params({ provider: 'yum' }))).to.throw(ValidationError, /unknown provider "yum" \(known: apt, dnf\)/);
  });

  it('refuses names outside the seed\'s characters, naming the character', () => {
    expect(parseProperties('libc6:amd64', params({})).name).to.equal('libc6:amd64');
    expect(parseProperties('g++', params({})).name).to.equal('g++');
    for (const [bad, ch] of [['vim;id', '";"'], ['a|b', '"|"'], ['a&b', '"&"'], ['$(id)', '"\\$"'], ['a b', 'space'], ['"a"', '"\\\\""'], ['`id`', '"`"'], ['a/b', '"/"']]) {
      expect(() => parseProperties(bad, params({})), bad).to.throw(ValidationError, new RegExp(`character ${ch} is not allowed`));
    }
    expect(() => parseProperties('-oDebug', params({}))).to.throw(ValidationError, /must not start with "-"/);
  });

  it('refuses versions with dangerous characters, naming the character', () => {
    expect(() => parseProperties('vim', params({ ensure: '1.0;reboot' }))).to.throw(ValidationError, /invalid ensure version "1.0;reboot": character ";"/);
    expect(() => parseProperties('vim', params({ ensure: '1.0 2' }))).to.throw(ValidationError, /character space/);
    expect(() => parseProperties('vim', params({ state: '1.0*' }))).to.throw(ValidationError, /invalid state version "1.0\*": character "\*"/);
    expect(() => parseProperties('vim', params({ ensure: '' }))).to.throw(ValidationError, /ensure is empty/);
    expect(() => parseProperties('vim', params({ ensure: '-1.0' }))).to.throw(ValidationError, /must not start with "-"/);
  });

  it('refuses unknown properties', () => {
    expect(() => parseProperties('vim', params({ version: '1.0' }))).to.throw(ValidationError, /unknown property "version" \(pkg understands ensure, state, provider\)/);
  });
});
