// The user provider of FreeBSD's pw(8): `pw useradd NAME [-u UID] [-g GROUP] [-G G1,G2] [-d HOME]
// [-m] [-s SHELL] [-c COMMENT]`, `pw usermod NAME` with the same options (-G is the whole list of
// supplementary groups, so adding passes the current ones and the missing ones), `pw userdel NAME
// [-r]`. The hash goes in with `pw usermod NAME -H 0`, read from stdin (never on a command line).
// FreeBSD has no shadow database for getent (the hash is in /etc/master.passwd): it is read with
// `pw usershow NAME`, whose second field it is. pw takes the name right after its command.
//
// pw has no option for a system account (one needs its uid given), and its usermod does not move
// a home directory: both are said before anything is done. Written from pw(8) and tested against a
// fake pw that accepts only that syntax: it has never run on FreeBSD (docs/portability.md).
import { act, query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import type { Change, DesiredUser } from './decide.js';
import type { ExistingUser, UserProvider } from './provider.js';

/** pw's exit status for a user it does not know (EX_NOUSER). */
const NO_USER = 67;

export function pwUserProvider(context: ProviderContext): UserProvider {
  async function setHash(name: string, hash: string): Promise<void> {
    await act(context, ['pw', 'usermod', name, '-H', '0'], { timeoutMs: COMMAND_TIMEOUT_MS, input: `${hash}\n` });
  }

  async function run(argv: string[]): Promise<void> {
    await act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }

  const provider: UserProvider = {
    name: 'pw',

    refuses(changes: Change[]): string | undefined {
      if (changes.some((c) => c.key === 'home' && c.move)) return 'pw usermod does not move a home directory (give managehome = false and move it yourself)';
      return undefined;
    },

    async create(desired: DesiredUser): Promise<void> {
      if (desired.system && desired.uid === undefined) throw new UserError(`user ${desired.name}: pw has no option for a system account; give its uid`);
      const argv = ['pw', 'useradd', desired.name];
      if (desired.uid !== undefined) argv.push('-u', String(desired.uid));
      if (desired.group) argv.push('-g', desired.group.label);
      if (desired.groups?.length) argv.push('-G', desired.groups.join(','));
      if (desired.home !== undefined) argv.push('-d', desired.home);
      if (desired.manageHome) argv.push('-m');
      if (desired.shell !== undefined) argv.push('-s', desired.shell);
      if (desired.comment !== undefined) argv.push('-c', desired.comment);
      await run(argv);
      if (desired.password !== undefined) await setHash(desired.name, desired.password);
    },

    async modify(desired: DesiredUser, changes: Change[], current: ExistingUser): Promise<void> {
      const refused = provider.refuses(changes);
      if (refused) throw new UserError(refused); // the runner asks first; this guards a direct call
      const argv = ['pw', 'usermod', desired.name];
      for (const c of changes) {
        if (c.key === 'uid') argv.push('-u', String(c.to));
        else if (c.key === 'group') argv.push('-g', c.to);
        else if (c.key === 'groups') argv.push('-G', (c.append ? [...current.groups, ...c.to.filter((g) => !current.groups.includes(g))] : c.to).join(','));
        else if (c.key === 'home') argv.push('-d', c.to);
        else if (c.key === 'shell') argv.push('-s', c.to);
        else if (c.key === 'comment') argv.push('-c', c.to);
      }
      if (argv.length > 3) await run(argv);
      if (changes.some((c) => c.key === 'password')) await setHash(desired.name, desired.password!);
    },

    async remove(name: string, removeHome: boolean): Promise<void> {
      await run(['pw', 'userdel', name, ...(removeHome ? ['-r'] : [])]);
    },

    /** The hash of master.passwd: the second field of `pw usershow NAME`. */
    async passwordHash(name: string): Promise<string | undefined> {
      const result = await query(context, ['pw', 'usershow', name], { timeoutMs: COMMAND_TIMEOUT_MS });
      if (result.code === NO_USER) return undefined;
      if (result.code !== 0) throw new UserError(`pw usershow ${name} exited ${result.code}: ${result.stderr.trim()}`);
      return result.stdout.split('\n')[0].split(':')[1];
    },
  };
  return provider;
}
