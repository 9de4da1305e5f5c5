// The group provider of shadow-utils: groupadd, groupmod, groupdel and gpasswd, run without a shell.
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import type { DesiredGroup } from './decide.js';
import type { GroupProvider } from './provider.js';

export function shadowGroupProvider(context: ProviderContext): GroupProvider {
  /** `gpasswd -M`: the member list, exactly (in /etc/group and /etc/gshadow alike). */
  async function setMembers(name: string, members: string[]): Promise<void> {
    await run(['gpasswd', '-M', members.join(','), '--', name]);
  }

  async function run(argv: string[]): Promise<void> {
    await act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }

  return {
    name: 'shadow',

    refuses(): undefined {
      return undefined;
    },

    async create(desired: DesiredGroup): Promise<void> {
      const argv = ['groupadd'];
      if (desired.gid !== undefined) argv.push('-g', String(desired.gid));
      if (desired.system) argv.push('-r');
      await run([...argv, '--', desired.name]);
      if (desired.members?.length) await setMembers(desired.name, desired.members);
    },

    async modify(name: string, gid: number | undefined, members: string[] | undefined): Promise<void> {
      if (gid !== undefined) await run(['groupmod', '-g', String(gid), '--', name]);
      if (members !== undefined) await setMembers(name, members);
    },

    async remove(name: string): Promise<void> {
      await run(['groupdel', '--', name]);
    },
  };
}
