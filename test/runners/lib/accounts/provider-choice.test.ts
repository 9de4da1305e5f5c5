// How the user and group runners pick their provider from the commands on PATH (this Debian host's
// real ones).
import { expect } from 'chai';
import { providerContext } from '../../../../src/shared/command-runner.js';
import { groupProvider } from '../../../../src/runners/group/providers.js';
import { userProvider } from '../../../../src/runners/user/providers.js';

const context = (PATH: string) => providerContext({ PATH }, () => undefined);
const SBIN_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

describe('account provider choice #once', () => {
  it('is shadow where useradd is on PATH, even beside adduser and deluser of another origin (Debian\'s own)', async () => {
    expect((await userProvider(undefined, context(SBIN_PATH))).name).to.equal('shadow');
    expect((await groupProvider(undefined, context(SBIN_PATH))).name).to.equal('shadow');
  });

  it('names what each provider needs when none is on PATH', async () => {
    const error = await userProvider(undefined, context('/nonexistent')).catch((e: unknown) => e as Error);
    expect((error as Error).message).to.equal(
      'no supported user account tool found on PATH (shadow needs useradd, usermod, userdel and chpasswd; busybox needs adduser, deluser, addgroup, delgroup and chpasswd; pw needs pw)',
    );
  });

  it('follows provider = "..." and names the commands it lacks', async () => {
    const error = await groupProvider('busybox', context('/nonexistent')).catch((e: unknown) => e as Error);
    expect((error as Error).message).to.equal('the busybox provider (provider = "busybox") needs addgroup and delgroup, which are not on PATH (/nonexistent)');
  });
});
