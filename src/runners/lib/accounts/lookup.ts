// The owners of what a runner writes (file, archive, git, cron...), looked up by name or id through
// the account databases' one reader (database.ts: `getent`, libc's NSS), so that accounts from LDAP or
// SSSD resolve the way `ls -l` and `chown` see them; an entry found once is kept for the process.
import type { ProviderContext } from '../../../shared/command-runner.js';
import { UserError } from '../../../shared/errors.js';
import { groupEntryOf, passwdEntryOf } from './database.js';

/** A user or group, resolved to its id; the label is how messages name it. */
export interface Account {
  id: number;
  label: string;
}

/** A user or group as the state file names it: a name to look up, or a numeric id. */
export type AccountSpec = { kind: 'name'; name: string } | { kind: 'id'; id: number };

type Database = 'passwd' | 'group';

const what = (db: Database) => (db === 'passwd' ? 'user' : 'group');

/** The id of a user (passwd) or group; a numeric id is taken as it is, even without an entry. */
export async function resolveAccount(db: Database, spec: AccountSpec, context: ProviderContext): Promise<Account> {
  const account = await findAccount(db, spec, context);
  if (!account) throw new UserError(unknownAccount(db, spec.kind === 'name' ? spec.name : String(spec.id)));
  return account;
}

/** As resolveAccount, undefined when the name has no entry. */
export async function findAccount(db: Database, spec: AccountSpec, context: ProviderContext): Promise<Account | undefined> {
  if (spec.kind === 'id') return { id: spec.id, label: String(spec.id) };
  const entry = await lookup(db, spec.name, context);
  return entry && { id: entry.id, label: spec.name };
}

export function unknownAccount(db: Database, name: string): string {
  return `unknown ${what(db)} "${name}" (getent ${db} ${name} found no entry)`;
}

/** The name of an id, for messages; undefined when the id has no entry. */
export async function accountName(db: Database, id: number, context: ProviderContext): Promise<string | undefined> {
  return (await lookup(db, String(id), context))?.name;
}

type Entry = { name: string; id: number };

// A persistent runner checks many files owned by the same few accounts: an entry found once is kept
// for the life of the process (one run). Misses are not kept, so an account created during the run
// (by an exec, say) is seen by the resources after it.
const found = new Map<string, Entry>();

async function lookup(db: Database, key: string, context: ProviderContext): Promise<Entry | undefined> {
  const cacheKey = `${db}:${key}`;
  const known = found.get(cacheKey);
  if (known) return known;
  const entry = await query(db, key, context);
  if (entry) found.set(cacheKey, entry);
  return entry;
}

async function query(db: Database, key: string, context: ProviderContext): Promise<Entry | undefined> {
  if (db === 'passwd') {
    const user = await passwdEntryOf(context, key);
    return user && { name: user.name, id: user.uid };
  }
  const group = await groupEntryOf(context, key);
  return group && { name: group.name, id: group.gid };
}
