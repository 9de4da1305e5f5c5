// The group provider of FreeBSD's pw(8): `pw groupadd NAME [-g GID] [-M MEMBERS]`, `pw groupmod
// NAME [-g GID] [-M MEMBERS]` (-M is the whole member list; emptying it is `-d` with the members
// there are), `pw groupdel NAME`. pw takes the name right after its command. It has no option for a
// system group: one needs its gid given (below 1000, as FreeBSD's base groups are).
//
// Written from pw(8) and tested against a fake pw that accepts only that syntax: it has never run
// on FreeBSD (docs/portability.md).
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import type { DesiredGroup } from './decide.js';
import type { GroupProvider } from './provider.js';

export function pwGroupProvider(context: ProviderContext): GroupProvider {
  async function run(argv: string[]): Promise<void> {
    await act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }

  return {
    name: 'pw',

    refuses(): undefined {
      return undefined; // pw groupmod changes the gid and the members
    },

    async create(desired: DesiredGroup): Promise<void> {
      if (desired.system && desired.gid === undefined) throw new UserError(`group ${desired.name}: pw has no option for a system group; give its gid`);
      const argv = ['pw', 'groupadd', desired.name];
      if (desired.gid !== undefined) argv.push('-g', String(desired.gid));
      if (desired.members?.length) argv.push('-M', desired.members.join(','));
      await run(argv);
    },

    async modify(name: string, gid: number | undefined, members: string[] | undefined, current: string[]): Promise<void> {
      const argv = ['pw', 'groupmod', name];
      if (gid !== undefined) argv.push('-g', String(gid));
      if (members !== undefined && members.length > 0) argv.push('-M', members.join(','));
      else if (members !== undefined && current.length > 0) argv.push('-d', current.join(','));
      if (argv.length > 3) await run(argv);
    },

    async remove(name: string): Promise<void> {
      await run(['pw', 'groupdel', name]);
    },
  };
}
