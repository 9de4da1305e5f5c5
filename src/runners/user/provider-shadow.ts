// The user provider of shadow-utils (Debian, Red Hat, Arch, SUSE, Void): useradd, usermod and
// userdel run without a shell; the password hash goes through chpasswd -e on stdin.
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import { setPasswordHash } from '../lib/accounts/chpasswd.js';
import type { Change, DesiredUser } from './decide.js';
import type { UserProvider } from './provider.js';

export function shadowUserProvider(context: ProviderContext): UserProvider {
  async function run(argv: string[]): Promise<void> {
    await act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }

  return {
    name: 'shadow',

    refuses(): undefined {
      return undefined; // usermod changes every property
    },

    async create(desired: DesiredUser): Promise<void> {
      const argv = ['useradd'];
      if (desired.uid !== undefined) argv.push('-u', String(desired.uid));
      if (desired.group) argv.push('-g', desired.group.label);
      if (desired.groups?.length) argv.push('-G', desired.groups.join(','));
      if (desired.home !== undefined) argv.push('-d', desired.home);
      argv.push(desired.manageHome ? '-m' : '-M');
      if (desired.shell !== undefined) argv.push('-s', desired.shell);
      if (desired.comment !== undefined) argv.push('-c', desired.comment);
      if (desired.system) argv.push('-r');
      await run([...argv, '--', desired.name]);
      if (desired.password !== undefined) await setPasswordHash(context, desired.name, desired.password);
    },

    async modify(desired: DesiredUser, changes: Change[]): Promise<void> {
      const argv = ['usermod'];
      for (const c of changes) {
        if (c.key === 'uid') argv.push('-u', String(c.to));
        else if (c.key === 'group') argv.push('-g', c.to);
        else if (c.key === 'groups') argv.push(...(c.append ? ['-a'] : []), '-G', c.to.join(','));
        else if (c.key === 'home') argv.push('-d', c.to, ...(c.move ? ['-m'] : []));
        else if (c.key === 'shell') argv.push('-s', c.to);
        else if (c.key === 'comment') argv.push('-c', c.to);
      }
      if (argv.length > 1) await run([...argv, '--', desired.name]);
      if (changes.some((c) => c.key === 'password')) await setPasswordHash(context, desired.name, desired.password!);
    },

    async remove(name: string, removeHome: boolean): Promise<void> {
      await run(['userdel', ...(removeHome ? ['-r'] : []), '--', name]);
    },
  };
}
