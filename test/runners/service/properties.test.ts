// The service runner's arguments as it reads them: checked against its description.
import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { parseRequest } from '../../../src/runners/kit/index.js';
import { serviceProperties } from '../../../src/runners/service/properties.js';
import { serviceRunner } from '../../../src/runners/service/runner.js';

const props = (name: string, ...args: string[]) => serviceProperties(parseRequest(serviceRunner(), [name, ...args], {}, () => undefined));

describe('service properties #once', () => {
  it('defaults to ensure running, enable unset, provider chosen later, system scope', () => {
    expect(props('nginx')).to.deep.equal({ name: 'nginx', ensure: 'running', enable: undefined, provider: undefined, scope: 'system' });
  });
  it('reads ensure, and state as its alias', () => {
    expect(props('nginx', 'ensure=stopped').ensure).to.equal('stopped');
    expect(props('nginx', 'state=stopped').ensure).to.equal('stopped');
  });
  it('refuses ensure and state together', () => {
    expect(() => props('nginx', 'state=running', 'ensure=stopped')).to.throw(UserError, /give only one of ensure and state/);
  });
  it('refuses other ensure values', () => {
    expect(() => props('nginx', 'ensure=present')).to.throw(UserError, /ensure "present" is not one of running, stopped/);
    expect(() => props('nginx', 'ensure=runing')).to.throw(UserError, /\(did you mean "running"\?\)/);
  });
  it('reads enable as true, false or unset', () => {
    expect(props('nginx', 'enable=true').enable).to.equal(true);
    expect(props('nginx', 'enable=false').enable).to.equal(false);
    expect(() => props('nginx', 'enable=yes')).to.throw(UserError, /enable "yes" is not true or false/);
  });
  it('reads provider and scope', () => {
    expect(props('nginx', 'provider=sysv').provider).to.equal('sysv');
    expect(props('nginx', 'provider=systemd', 'scope=user')).to.deep.include({ provider: 'systemd', scope: 'user' });
    expect(() => props('nginx', 'provider=upstart')).to.throw(UserError, /provider "upstart" is not one of systemd, sysv/);
    expect(() => props('nginx', 'scope=global')).to.throw(UserError, /scope "global" is not one of system, user/);
  });
  it('refuses a user scope with sysv', () => {
    expect(() => props('nginx', 'provider=sysv', 'scope=user')).to.throw(UserError, /provider must be "systemd" when scope = "user", not "sysv"/);
  });
  it('refuses unknown keys, with a hint for enabled', () => {
    expect(() => props('nginx', 'enabled=true')).to.throw(UserError, /unknown key "enabled" \(did you mean "enable"\?\)/);
    expect(() => props('nginx', 'restart=always')).to.throw(UserError, /unknown key "restart" \(service takes ensure, state, enable, provider, scope\)/);
  });
  it('refuses a key given twice', () => {
    expect(() => props('nginx', 'ensure=running', 'ensure=stopped')).to.throw(UserError, /ensure is given 2 times/);
  });
  it('accepts the seed name characters: letters, digits and . _ + : ~ -', () => {
    expect(props('a-Z.0_9+x:y~z').name).to.equal('a-Z.0_9+x:y~z');
  });
  it('rejects shell metacharacters, whitespace and path separators, naming the character', () => {
    for (const [name, shown] of [['a;b', '";"'], ['a|b', '"|"'], ['a&b', '"&"'], ['a b', 'space'], ['a/b', '"/"'], ['$(x)', '"$"'], ['a\nb', 'U+000A']]) {
      expect(() => props(name), name).to.throw(UserError, `character ${shown} is not allowed`);
    }
    expect(() => props('-x')).to.throw(UserError, /must not start with "-"/);
  });
});
