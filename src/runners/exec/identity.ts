// exec's `user`, `group` and `umask`: the command and its unless/onlyif checks run as that user
// (its uid, its primary or the given group, its supplementary groups, its HOME, USER and LOGNAME)
// and with that umask. The change is made by programs put in front of the argv, so that a value
// never reaches a shell's parser: setpriv(1) for the identity, and `sh -c 'umask "$1" ...'` with
// the mask as an argument for the umask (no program sets only the umask of what it runs).
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { groupEntryOf, passwdEntryOf } from '../lib/accounts/database.js';
import { pendingResource } from '../kit/noop-pending.js';
import { DEFAULT_PATH, findProgram } from '../lib/command-line.js';

export interface Identity {
  /** Programs and arguments put before the command's argv. */
  prefix: string[];
  /** Variables set in the command's environment (HOME, USER, LOGNAME of the user). */
  env: Record<string, string>;
  /** In noop mode, what an earlier resource of the run would create: a note for the message. */
  note?: string;
}

export interface IdentityKeys {
  user?: string;
  group?: string;
  umask?: number;
}

const UMASK_SCRIPT = 'umask "$1" && shift && exec "$@"';

export async function commandIdentity(keys: IdentityKeys, context: ProviderContext, request: { noop: boolean; pending: readonly string[] }): Promise<Identity> {
  const prefix: string[] = [];
  const env: Record<string, string> = {};
  const notes: string[] = [];
  if (keys.umask !== undefined) prefix.push('/bin/sh', '-c', UMASK_SCRIPT, 'sh', keys.umask.toString(8).padStart(4, '0'));
  if (keys.user === undefined && keys.group === undefined) return { prefix, env };

  const missing = (what: string, name: string, ...refs: string[]): void => {
    const creator = pendingResource(request, ...refs);
    if (!creator) throw new UserError(`unknown ${what} "${name}" (getent ${what === 'user' ? 'passwd' : 'group'} ${name} found no entry)`);
    notes.push(`${what} "${name}" does not exist yet: ${creator} would create it`);
  };
  // Found here, so that a `path` without /usr/bin does not lose it when it comes after the umask's sh.
  const setpriv = [findProgram('setpriv', DEFAULT_PATH)];
  if (keys.user !== undefined) {
    const user = await passwdEntryOf(context, keys.user);
    if (!user) missing('user', keys.user, `user:${keys.user}`);
    else {
      setpriv.push('--reuid', String(user.uid), '--regid', String(user.gid), '--init-groups');
      Object.assign(env, { HOME: user.home, USER: user.name, LOGNAME: user.name });
    }
  }
  if (keys.group !== undefined) {
    const group = await groupEntryOf(context, keys.group);
    if (!group) missing('group', keys.group, `group:${keys.group}`, `user:${keys.group}`);
    else {
      const at = setpriv.indexOf('--regid');
      if (at >= 0) setpriv[at + 1] = String(group.gid);
      else setpriv.push('--regid', String(group.gid), '--clear-groups');
    }
  }
  if (setpriv.length > 1) prefix.push(...setpriv, '--');
  return { prefix, env, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}
