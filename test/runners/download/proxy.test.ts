// Which proxy variable applies to a URL (docs/download.md, "Proxies"): pure.
import { expect } from 'chai';
import { proxyVariable } from '../../../src/runners/download/proxy.js';

describe('download proxy variables #once', () => {
  it('https_proxy for https, http_proxy for http, lower case first, then all_proxy', () => {
    expect(proxyVariable('https://a.example/x', { https_proxy: 'http://p:1', HTTPS_PROXY: 'http://q:1' })).to.equal('https_proxy');
    expect(proxyVariable('https://a.example/x', { HTTPS_PROXY: 'http://q:1' })).to.equal('HTTPS_PROXY');
    expect(proxyVariable('https://a.example/x', { http_proxy: 'http://p:1' })).to.equal(undefined);
    expect(proxyVariable('http://a.example/x', { http_proxy: 'http://p:1' })).to.equal('http_proxy');
    expect(proxyVariable('http://a.example/x', { all_proxy: 'socks5://p:1' })).to.equal('all_proxy');
    expect(proxyVariable('http://a.example/x', { http_proxy: '' })).to.equal(undefined);
  });

  it('no_proxy: a host, a domain with or without its dot, *', () => {
    const env = { https_proxy: 'http://p:1' };
    expect(proxyVariable('https://a.example/x', { ...env, no_proxy: 'b.example, a.example' })).to.equal(undefined);
    expect(proxyVariable('https://cdn.a.example/x', { ...env, no_proxy: 'a.example' })).to.equal(undefined);
    expect(proxyVariable('https://cdn.a.example/x', { ...env, NO_PROXY: '.a.example' })).to.equal(undefined);
    expect(proxyVariable('https://ba.example/x', { ...env, no_proxy: 'a.example' })).to.equal('https_proxy');
    expect(proxyVariable('https://[::1]:8/x', { ...env, no_proxy: '::1' })).to.equal(undefined);
    expect(proxyVariable('https://a.example/x', { ...env, no_proxy: '*' })).to.equal(undefined);
  });
});
