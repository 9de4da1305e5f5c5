// The group runner's system calls: shadow-utils (groupadd, groupmod, groupdel, gpasswd) run without
// a shell, the group read with getent.
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { COMMAND_TIMEOUT_MS, groupEntryOf, type PasswdEntry } from '../accounts/database.js';
import type { CurrentGroup, DesiredGroup } from './decide.js';

export async function readGroup(context: ProviderContext, name: string, users: PasswdEntry[]): Promise<CurrentGroup> {
  const entry = await groupEntryOf(context, name);
  if (!entry) return { exists: false };
  return { exists: true, gid: entry.gid, members: entry.members, primaryOf: users.filter((u) => u.gid === entry.gid).map((u) => u.name) };
}

const run = (context: ProviderContext, argv: string[]) => act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });

export async function createGroup(context: ProviderContext, desired: DesiredGroup): Promise<void> {
  const argv = ['groupadd'];
  if (desired.gid !== undefined) argv.push('-g', String(desired.gid));
  if (desired.system) argv.push('-r');
  await run(context, [...argv, '--', desired.name]);
  if (desired.members?.length) await setMembers(context, desired.name, desired.members);
}

export async function modifyGroup(context: ProviderContext, name: string, gid: number | undefined, members: string[] | undefined): Promise<void> {
  if (gid !== undefined) await run(context, ['groupmod', '-g', String(gid), '--', name]);
  if (members !== undefined) await setMembers(context, name, members);
}

export async function removeGroup(context: ProviderContext, name: string): Promise<void> {
  await run(context, ['groupdel', '--', name]);
}

/** `gpasswd -M`: the member list, exactly (in /etc/group and /etc/gshadow alike). */
async function setMembers(context: ProviderContext, name: string, members: string[]): Promise<void> {
  await run(context, ['gpasswd', '-M', members.join(','), '--', name]);
}
