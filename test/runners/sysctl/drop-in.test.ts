// Several sysctl resources sharing one drop-in: each sets or removes its own line, the rest kept.
import { expect } from 'chai';
import { withKey } from '../../../src/runners/sysctl/drop-in.js';

describe('sysctl drop-in composition #once', () => {
  const router = '# Managed by govern: sysctl "net.ipv4.ip_forward"\nnet.ipv4.ip_forward = 1\n';

  it('a new file holds govern\'s header and the key', () => {
    expect(withKey(undefined, 'net.ipv4.ip_forward', '1')).to.equal(router);
    expect(withKey(undefined, 'net.ipv4.ip_forward', '1', true)).to.equal('# Managed by govern: sysctl\nnet.ipv4.ip_forward = 1\n');
    expect(withKey(undefined, 'net.ipv4.ip_forward', undefined)).to.equal(undefined);
  });

  it('a second key is added after the first, and the first kept; setting either again changes nothing', () => {
    const both = withKey(router, 'net.ipv6.conf.all.forwarding', '1')!;
    expect(both).to.equal(`${router}net.ipv6.conf.all.forwarding = 1\n`);
    expect(withKey(both, 'net.ipv4.ip_forward', '1')).to.equal(both);
    expect(withKey(both, 'net.ipv6.conf.all.forwarding', '1')).to.equal(both);
  });

  it('a changed value is replaced in place; its repetitions, a -key and a slash form of it are one key', () => {
    const text = '# ours\nnet.ipv4.ip_forward=0\nvm.swappiness = 10\n-net.ipv4.ip_forward = 0\nnet/ipv4/ip_forward = 0\n';
    expect(withKey(text, 'net.ipv4.ip_forward', '1')).to.equal('# ours\nnet.ipv4.ip_forward = 1\nvm.swappiness = 10\n');
  });

  it('absent removes the key\'s lines only; the file goes when only govern\'s header is left', () => {
    const both = `${router}vm.swappiness = 10\n`;
    expect(withKey(both, 'net.ipv4.ip_forward', undefined)).to.equal('# Managed by govern: sysctl "net.ipv4.ip_forward"\nvm.swappiness = 10\n');
    expect(withKey(router, 'net.ipv4.ip_forward', undefined)).to.equal(undefined);
    expect(withKey('# the admin\'s own\nnet.ipv4.ip_forward = 1\n', 'net.ipv4.ip_forward', undefined)).to.equal('# the admin\'s own\n');
  });
});
