import { expect } from 'chai';
import { checkFactName, checkHost } from '../../../src/facts/remote/names.js';

describe('remote host and fact names #once', () => {
  it('accepts ssh_config aliases, DNS names, addresses and user@host', () => {
    for (const host of ['alpha', 'web-1.example.com', '192.0.2.7', '2001:db8::1', '[2001:db8::1]', 'deploy@db_2']) expect(checkHost(host)).to.equal(host);
  });

  it('refuses a host that ssh would read as an option, or that holds anything else', () => {
    expect(() => checkHost('-oProxyCommand')).to.throw(/invalid host "-oProxyCommand": it must not start with "-"/);
    expect(() => checkHost('a b')).to.throw(/character space is not allowed/);
    expect(() => checkHost('alpha;id')).to.throw(/character ";" is not allowed/);
    expect(() => checkHost('alpha%h')).to.throw(/character "%"/);
    expect(() => checkHost('')).to.throw(/host is empty/);
  });

  it('accepts fact paths and refuses shell syntax, options and whitespace', () => {
    for (const name of ['os/name', 'network/primary/ip', 'cpu/count', 'a_b.c+d:e']) expect(checkFactName(name)).to.equal(name);
    expect(() => checkFactName('--json')).to.throw(/must not start with "-"/);
    for (const [bad, ch] of [['a$(id)', '"\\$"'], ['a;b', '";"'], ['a b', 'space'], ["a'b", `"'"`], ['a`b', '"`"'], ['a\nb', 'U\\+000A'], ['a*', '"\\*"']]) {
      expect(() => checkFactName(bad), bad).to.throw(new RegExp(`invalid fact name .*character ${ch} is not allowed`));
    }
  });
});
