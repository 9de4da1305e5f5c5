// The group as it is, for every provider: through getent, with the users whose primary group it is.
import type { ProviderContext } from '../../shared/command-runner.js';
import { groupEntryOf, type PasswdEntry } from '../lib/accounts/database.js';
import type { CurrentGroup } from './decide.js';

export async function readGroup(context: ProviderContext, name: string, users: PasswdEntry[]): Promise<CurrentGroup> {
  const entry = await groupEntryOf(context, name);
  if (!entry) return { exists: false };
  return { exists: true, gid: entry.gid, members: entry.members, primaryOf: users.filter((u) => u.gid === entry.gid).map((u) => u.name) };
}
