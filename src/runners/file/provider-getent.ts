// Users and groups through `getent` (libc's NSS), so that accounts from LDAP or SSSD resolve the
// same way `ls -l` and `chown` see them, not only those in /etc/passwd and /etc/group.
import { describeFailure, lastLines, runCommand } from '../../shared/process.js';
import { RunnerError } from '../kit.js';
import type { AccountSpec } from './properties.js';
import type { Account } from './state.js';

const TIMEOUT_MS = 30_000;
type Database = 'passwd' | 'group';

const what = (db: Database) => (db === 'passwd' ? 'user' : 'group');

/** The id of a user (passwd) or group; a numeric id is taken as it is, even without an entry. */
export async function resolveAccount(db: Database, spec: AccountSpec, env: NodeJS.ProcessEnv): Promise<Account> {
  if (spec.kind === 'id') return { id: spec.id, label: String(spec.id) };
  const entry = await lookup(db, spec.name, env);
  if (!entry) throw new RunnerError(`unknown ${what(db)} "${spec.name}" (getent ${db} ${spec.name} found no entry)`);
  return { id: entry.id, label: spec.name };
}

/** The name of an id, for messages; undefined when the id has no entry. */
export async function accountName(db: Database, id: number, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return (await lookup(db, String(id), env))?.name;
}

async function lookup(db: Database, key: string, env: NodeJS.ProcessEnv): Promise<{ name: string; id: number } | undefined> {
  const result = await runCommand('getent', [db, key], { env, timeoutMs: TIMEOUT_MS });
  if (result.code === 2) return undefined; // getent: "key not found"
  if (result.code !== 0) {
    throw new RunnerError(`getent ${db} ${key} failed (${describeFailure(result, TIMEOUT_MS)}): ${lastLines(result.stderr)}`);
  }
  // name:password:id:... on the first line
  const fields = result.stdout.split('\n')[0].split(':');
  const id = Number(fields[2]);
  if (fields.length < 3 || fields[2] === '' || !Number.isInteger(id)) throw new RunnerError(`getent ${db} ${key} printed an entry govern cannot read: ${fields.join(':')}`);
  return { name: fields[0], id };
}
