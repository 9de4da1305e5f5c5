// How the service runner picks its provider: one mechanism for every runner (provider-choice.ts).
import { expect } from 'chai';
import { providerContext } from '../../../src/shared/command-runner.js';
import { UserError } from '../../../src/shared/errors.js';
import { chooseProvider } from '../../../src/runners/kit/provider-choice.js';
import type { ServiceProperties } from '../../../src/runners/service/properties.js';
import { serviceProviders } from '../../../src/runners/service/providers.js';
import { OPENRC_UNPACKED, OpenrcRoot } from './support/openrc-root.js';

const props = (p: Partial<ServiceProperties>): ServiceProperties => ({ name: 'x', ensure: 'running', scope: 'system', ...p });
const context = providerContext({ PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' }, () => undefined);
/** A PATH with OpenRC's rc-service and rc-update, as scripts/setup-debian unpacks them. */
const openrcContext = providerContext({ PATH: `${OPENRC_UNPACKED}/sbin:/usr/sbin:/usr/bin:/sbin:/bin` }, () => undefined);
const choose = async (p: Partial<ServiceProperties>, booted: boolean) =>
  (await chooseProvider('init system', serviceProviders(() => booted), p.provider, props(p), context)).name;

describe('service provider choice #once', () => {
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
  it('is openrc when OpenRC booted the host (/run/openrc/softlevel), before sysv; systemd still first', async function () {
    if (!OpenrcRoot.available()) this.skip();
    const chooseWith = async (systemd: boolean, openrc: boolean, p: Partial<ServiceProperties> = {}) =>
      (await chooseProvider('init system', serviceProviders(() => systemd, () => false, () => openrc), p.provider, props(p), openrcContext)).name;
    expect(await chooseWith(false, true)).to.equal('openrc');
    expect(await chooseWith(true, true)).to.equal('systemd');
    expect(await chooseWith(false, true, { provider: 'sysv' })).to.equal('sysv');
  });
  it('names the commands the openrc provider lacks', async () => {
    let error: unknown;
    await chooseProvider('init system', serviceProviders(() => false, () => false, () => true), undefined, props({}), context).catch((e: unknown) => (error = e));
    expect((error as Error).message).to.match(/^the openrc provider \(OpenRC is the init system\) needs rc-service and rc-update, which are not on PATH/);
  });
  it('names the command the chosen provider lacks', async () => {
    const bare = providerContext({ PATH: '/nonexistent' }, () => undefined);
    let error: unknown;
    await chooseProvider('init system', serviceProviders(() => false), undefined, props({}), bare).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(UserError);
    expect((error as Error).message).to.equal('the sysv provider (systemd is not the init system) needs service, which is not on PATH (/nonexistent)');
  });
});
