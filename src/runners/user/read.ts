// The user as it is, for every provider: passwd and group through getent, the shadow entry only
// when a password is managed (through the provider where it reads the hash itself: pw), and the
// processes running as the user.
import type { ProviderContext } from '../../shared/command-runner.js';
import { allGroups, passwdEntryOf, shadowHash, type GroupEntry } from '../lib/accounts/database.js';
import { processesOf } from '../lib/accounts/processes.js';
import type { CurrentUser } from './decide.js';

export async function readUser(
  context: ProviderContext,
  name: string,
  withPassword: boolean,
  groups: GroupEntry[],
  readHash: (name: string) => Promise<string | undefined> = (n) => shadowHash(context, n),
): Promise<CurrentUser> {
  const entry = await passwdEntryOf(context, name);
  if (!entry) return { exists: false };
  return {
    exists: true,
    uid: entry.uid,
    gid: entry.gid,
    groupName: groups.find((g) => g.gid === entry.gid)?.name,
    groups: groups.filter((g) => g.members.includes(name)).map((g) => g.name),
    home: entry.home,
    shell: entry.shell,
    comment: entry.comment,
    password: withPassword ? await readHash(name) : undefined,
    processes: processesOf(entry.uid),
  };
}

export { allGroups };
