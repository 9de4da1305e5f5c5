// The group provider of busybox's applets (Alpine), with their documented options: `addgroup [-g
// GID] [-S] GROUP` creates, `addgroup USER GROUP` and `delgroup USER GROUP` add and remove one
// member, `delgroup GROUP` removes. Busybox has no groupmod: the gid of an existing group cannot be
// changed with it, and saying so comes before anything is done. No "--" before a name (delgroup
// counts its arguments; a name govern accepts never starts with "-").
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import type { DesiredGroup } from './decide.js';
import type { GroupProvider } from './provider.js';

export function busyboxGroupProvider(context: ProviderContext): GroupProvider {
  async function run(argv: string[]): Promise<void> {
    await act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }

  const provider: GroupProvider = {
    name: 'busybox',

    refuses(change: { gid?: number }): string | undefined {
      return change.gid === undefined ? undefined : 'busybox cannot change the gid of an existing group (it has no groupmod; install shadow, whose groupmod the shadow provider uses)';
    },

    async create(desired: DesiredGroup): Promise<void> {
      const argv = ['addgroup'];
      if (desired.gid !== undefined) argv.push('-g', String(desired.gid));
      if (desired.system) argv.push('-S');
      await run([...argv, desired.name]);
      for (const member of desired.members ?? []) await run(['addgroup', member, desired.name]);
    },

    async modify(name: string, gid: number | undefined, members: string[] | undefined, current: string[]): Promise<void> {
      const refused = provider.refuses({ gid });
      if (refused) throw new UserError(refused); // the runner asks first; this guards a direct call
      if (members === undefined) return;
      for (const member of members.filter((m) => !current.includes(m))) await run(['addgroup', member, name]);
      for (const member of current.filter((m) => !members.includes(m))) await run(['delgroup', member, name]);
    },

    async remove(name: string): Promise<void> {
      await run(['delgroup', name]);
    },
  };
  return provider;
}
