import { expect } from 'chai';
import { Params, ProtocolError } from '../../../src/shared/protocol.js';
import { ValidationError } from '../../../src/shared/validate.js';
import { parseProperties } from '../../../src/runners/service/properties.js';

const params = (...args: string[]) => new Params(args.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as [string, string]));

describe('service properties', () => {
  it('defaults to ensure running, enable unset, provider chosen later, system scope', () => {
    expect(parseProperties('nginx', params())).to.deep.equal({ name: 'nginx', ensure: 'running', enable: undefined, provider: undefined, scope: 'system' });
  });
  it('reads ensure, and state as its alias', () => {
    expect(parseProperties('nginx', params('ensure=stopped')).ensure).to.equal('stopped');
    expect(parseProperties('nginx', params('state=stopped')).ensure).to.equal('stopped');
    expect(parseProperties('nginx', params('state=running', 'ensure=running')).ensure).to.equal('running');
  });
  it('refuses ensure and state that disagree', () => {
    expect(() => parseProperties('nginx', params('state=running', 'ensure=stopped'))).to.throw(ValidationError, /disagree/);
  });
  it('refuses other ensure values', () => {
    expect(() => parseProperties('nginx', params('ensure=present'))).to.throw(ValidationError, /ensure must be "running" or "stopped", not "present"/);
  });
  it('reads enable as true, false or unset', () => {
    expect(parseProperties('nginx', params('enable=true')).enable).to.equal(true);
    expect(parseProperties('nginx', params('enable=false')).enable).to.equal(false);
    expect(() => parseProperties('nginx', params('enable=yes'))).to.throw(ValidationError, /enable must be true or false/);
  });
  it('reads provider and scope', () => {
    expect(parseProperties('nginx', params('provider=sysv')).provider).to.equal('sysv');
    expect(parseProperties('nginx', params('provider=systemd', 'scope=user'))).to.deep.include({ provider: 'systemd', scope: 'user' });
    expect(() => parseProperties('nginx', params('provider=upstart'))).to.throw(ValidationError, /provider must be "systemd" or "sysv"/);
    expect(() => parseProperties('nginx', params('scope=global'))).to.throw(ValidationError, /scope must be/);
  });
  it('refuses a user scope with sysv', () => {
    expect(() => parseProperties('nginx', params('provider=sysv', 'scope=user'))).to.throw(ValidationError, /needs the systemd provider/);
  });
  it('refuses unknown properties, with a hint for enabled', () => {
    expect(() => parseProperties('nginx', params('enabled=true'))).to.throw(ValidationError, /unknown property enabled \(did you mean enable\?\)/);
    expect(() => parseProperties('nginx', params('restart=always'))).to.throw(ValidationError, /unknown property restart/);
  });
  it('refuses a property given twice', () => {
    expect(() => parseProperties('nginx', params('ensure=running', 'ensure=stopped'))).to.throw(ProtocolError, /given 2 times/);
  });
  it('accepts the seed name characters: letters, digits and . _ + : ~ -', () => {
    expect(parseProperties('a-Z.0_9+x:y~z', params()).name).to.equal('a-Z.0_9+x:y~z');
  });
  it('rejects shell metacharacters, whitespace and path separators, naming the character', () => {
    for (const [name, shown] of [['a;b', '";"'], ['a|b', '"|"'], ['a&b', '"&"'], ['a b', 'space'], ['a/b', '"/"'], ['$(x)', '"$"'], ['a\nb', 'U+000A']]) {
      expect(() => parseProperties(name, params()), name).to.throw(ValidationError, `character ${shown} is not allowed`);
    }
    expect(() => parseProperties('-x', params())).to.throw(ValidationError, /must not start with "-"/);
  });
});
