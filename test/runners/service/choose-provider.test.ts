import { expect } from 'chai';
import { chooseProviderName } from '../../../src/runners/service/choose-provider.js';
import type { ServiceProperties } from '../../../src/runners/service/properties.js';

const props = (p: Partial<ServiceProperties>): ServiceProperties => ({ name: 'x', ensure: 'running', scope: 'system', ...p });

describe('service provider choice', () => {
  it('is systemd when /run/systemd/system exists, sysv otherwise', () => {
    expect(chooseProviderName(props({}), () => true)).to.equal('systemd');
    expect(chooseProviderName(props({}), () => false)).to.equal('sysv');
  });
  it('follows provider = "..." whatever the host', () => {
    expect(chooseProviderName(props({ provider: 'sysv' }), () => true)).to.equal('sysv');
    expect(chooseProviderName(props({ provider: 'systemd' }), () => false)).to.equal('systemd');
  });
  it('is systemd for a user scope', () => {
    expect(chooseProviderName(props({ scope: 'user' }), () => false)).to.equal('systemd');
  });
});
