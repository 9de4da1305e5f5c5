// How the service runner picks its provider: one mechanism for every runner (provider-choice.ts).
import { expect } from 'chai';
import { providerContext } from '../../../src/shared/command-runner.js';
import { UserError } from '../../../src/shared/errors.js';
import { chooseProvider } from '../../../src/runners/provider-choice.js';
import type { ServiceProperties } from '../../../src/runners/service/properties.js';
import { serviceProviders } from '../../../src/runners/service/providers.js';

const props = (p: Partial<ServiceProperties>): ServiceProperties => ({ name: 'x', ensure: 'running', scope: 'system', ...p });
const context = providerContext({ PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' }, () => undefined);
const choose = async (p: Partial<ServiceProperties>, booted: boolean) =>
  (await chooseProvider('init system', serviceProviders(() => booted), p.provider, props(p), context)).name;

describe('service provider choice', () => {
  it('is systemd when /run/systemd/system exists, sysv otherwise', async () => {
    expect(await choose({}, true)).to.equal('systemd');
    expect(await choose({}, false)).to.equal('sysv');
  });
  it('follows provider = "..." whatever the host', async () => {
    expect(await choose({ provider: 'sysv' }, true)).to.equal('sysv');
    expect(await choose({ provider: 'systemd' }, false)).to.equal('systemd');
  });
  it('is systemd for a user scope', async () => {
    expect(await choose({ scope: 'user' }, false)).to.equal('systemd');
  });
  it('names the command the chosen provider lacks', async () => {
    const bare = providerContext({ PATH: '/nonexistent' }, () => undefined);
    let error: unknown;
    await chooseProvider('init system', serviceProviders(() => false), undefined, props({}), bare).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(UserError);
    expect((error as Error).message).to.equal('the sysv provider (systemd is not the init system) needs service, which is not on PATH (/nonexistent)');
  });
});
