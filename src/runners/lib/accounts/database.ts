// The account databases as every runner reads them (the one getent reader): `getent` (libc's NSS,
// as `id` and `ls -l` see them) for passwd and group, `getent shadow` for a password hash. Read only.
import { commandFailure } from '../../../shared/command-failure.js';
import { query, type ProviderContext } from '../../../shared/command-runner.js';
import { UserError } from '../../../shared/errors.js';

/**
 * The time limit of the account commands (useradd, pw...) and of every getent. One limit for every
 * reader: the longest read is a whole database (`getent passwd`) served by a large LDAP directory
 * through SSSD, and an owner's lookup through the same directory deserves the same patience.
 */
export const COMMAND_TIMEOUT_MS = 60_000;

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  comment: string;
  home: string;
  shell: string;
}

export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

type Database = 'passwd' | 'group' | 'shadow';

/** The lines of `getent DB [KEY]`; none when the key has no entry (exit 2). */
async function getent(context: ProviderContext, db: Database, key?: string): Promise<string[]> {
  const argv = ['getent', db, ...(key !== undefined ? [key] : [])];
  const result = await query(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  if (result.code === 2) return [];
  if (result.code !== 0) throw new UserError(commandFailure(argv.join(' '), result, { timeoutMs: COMMAND_TIMEOUT_MS }));
  return result.stdout.split('\n').filter((line) => line !== '');
}

function unreadable(db: Database, line: string): UserError {
  return new UserError(`getent ${db} printed an entry govern cannot read: ${line}`);
}

function id(text: string | undefined, db: Database, line: string): number {
  if (text === undefined || !/^[0-9]+$/.test(text)) throw unreadable(db, line);
  return Number(text);
}

function passwdEntry(line: string): PasswdEntry {
  const f = line.split(':');
  if (f.length < 7) throw unreadable('passwd', line);
  return { name: f[0], uid: id(f[2], 'passwd', line), gid: id(f[3], 'passwd', line), comment: f[4], home: f[5], shell: f.slice(6).join(':') };
}

function groupEntry(line: string): GroupEntry {
  const f = line.split(':');
  if (f.length < 4) throw unreadable('group', line);
  return { name: f[0], gid: id(f[2], 'group', line), members: f[3] === '' ? [] : f[3].split(',') };
}

/** A user by name (or by uid, given as digits). */
export async function passwdEntryOf(context: ProviderContext, key: string): Promise<PasswdEntry | undefined> {
  const [line] = await getent(context, 'passwd', key);
  return line === undefined ? undefined : passwdEntry(line);
}

/** A group by name (or by gid, given as digits). */
export async function groupEntryOf(context: ProviderContext, key: string): Promise<GroupEntry | undefined> {
  const [line] = await getent(context, 'group', key);
  return line === undefined ? undefined : groupEntry(line);
}

export async function allUsers(context: ProviderContext): Promise<PasswdEntry[]> {
  return (await getent(context, 'passwd')).map(passwdEntry);
}

export async function allGroups(context: ProviderContext): Promise<GroupEntry[]> {
  return (await getent(context, 'group')).map(groupEntry);
}

/** The user's password field in the shadow database; undefined when it has no shadow entry. */
export async function shadowHash(context: ProviderContext, name: string): Promise<string | undefined> {
  const [line] = await getent(context, 'shadow', name);
  return line === undefined ? undefined : line.split(':')[1];
}
