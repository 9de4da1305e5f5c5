// The user runner's system calls: shadow-utils (useradd, usermod, userdel, chpasswd) run without a
// shell, the account read with getent. The password hash reaches chpasswd on stdin, never a
// command line (every local user can read those in /proc).
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { allGroups, COMMAND_TIMEOUT_MS, passwdEntryOf, shadowHash, type GroupEntry } from '../accounts/database.js';
import { processesOf } from '../accounts/processes.js';
import type { Change, CurrentUser, DesiredUser } from './decide.js';

/** The user as it is; the shadow entry only when a password is managed. */
export async function readUser(context: ProviderContext, name: string, withPassword: boolean, groups: GroupEntry[]): Promise<CurrentUser> {
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
    password: withPassword ? await shadowHash(context, name) : undefined,
    processes: processesOf(entry.uid),
  };
}

export { allGroups };

const run = (context: ProviderContext, argv: string[]) => act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });

export async function createUser(context: ProviderContext, desired: DesiredUser): Promise<void> {
  const argv = ['useradd'];
  if (desired.uid !== undefined) argv.push('-u', String(desired.uid));
  if (desired.group) argv.push('-g', desired.group.label);
  if (desired.groups?.length) argv.push('-G', desired.groups.join(','));
  if (desired.home !== undefined) argv.push('-d', desired.home);
  argv.push(desired.manageHome ? '-m' : '-M');
  if (desired.shell !== undefined) argv.push('-s', desired.shell);
  if (desired.comment !== undefined) argv.push('-c', desired.comment);
  if (desired.system) argv.push('-r');
  await run(context, [...argv, '--', desired.name]);
  if (desired.password !== undefined) await setPassword(context, desired.name, desired.password);
}

export async function modifyUser(context: ProviderContext, desired: DesiredUser, changes: Change[]): Promise<void> {
  const argv = ['usermod'];
  for (const c of changes) {
    if (c.key === 'uid') argv.push('-u', String(c.to));
    else if (c.key === 'group') argv.push('-g', c.to);
    else if (c.key === 'groups') argv.push(...(c.append ? ['-a'] : []), '-G', c.to.join(','));
    else if (c.key === 'home') argv.push('-d', c.to, ...(c.move ? ['-m'] : []));
    else if (c.key === 'shell') argv.push('-s', c.to);
    else if (c.key === 'comment') argv.push('-c', c.to);
  }
  if (argv.length > 1) await run(context, [...argv, '--', desired.name]);
  if (changes.some((c) => c.key === 'password')) await setPassword(context, desired.name, desired.password!);
}

export async function removeUser(context: ProviderContext, name: string, removeHome: boolean): Promise<void> {
  await run(context, ['userdel', ...(removeHome ? ['-r'] : []), '--', name]);
}

/** `chpasswd -e` reads "name:hash" on stdin: the hash as it is, never on a command line. */
async function setPassword(context: ProviderContext, name: string, hash: string): Promise<void> {
  await act(context, ['chpasswd', '-e'], { timeoutMs: COMMAND_TIMEOUT_MS, input: `${name}:${hash}\n` });
}
