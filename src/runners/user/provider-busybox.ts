// The user provider of busybox's applets (Alpine): adduser, deluser, addgroup and delgroup, with
// their documented options (busybox's adduser usage: -h DIR, -g GECOS, -s SHELL, -G GRP, -S, -D,
// -H, -u UID; `addgroup USER GROUP` and `delgroup USER GROUP` for one membership; `deluser
// [--remove-home] USER`). Busybox has no usermod: the uid, primary group, home, shell and comment
// of an existing user cannot be changed with it, and saying so comes before anything is done.
// No "--" before a name: deluser and delgroup count their arguments and would take it for one, and
// a name govern accepts never starts with "-".
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import { setPasswordHash } from '../lib/accounts/chpasswd.js';
import type { Change, DesiredUser } from './decide.js';
import type { ExistingUser, UserProvider } from './provider.js';

/** What only usermod could change. */
const UNCHANGEABLE: Partial<Record<Change['key'], string>> = { uid: 'uid', group: 'primary group', home: 'home', shell: 'shell', comment: 'comment' };

export function busyboxUserProvider(context: ProviderContext): UserProvider {
  async function run(argv: string[]): Promise<void> {
    await act(context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }

  const provider: UserProvider = {
    name: 'busybox',

    refuses(changes: Change[]): string | undefined {
      const named = changes.map((c) => UNCHANGEABLE[c.key]).filter((what) => what !== undefined);
      if (named.length === 0) return undefined;
      return `busybox cannot change the ${named.join(', ')} of an existing user (it has no usermod; install shadow, whose usermod the shadow provider uses)`;
    },

    /** -D: no interactive passwd (the hash, if any, is set after); -H unless managehome, as useradd -M. */
    async create(desired: DesiredUser): Promise<void> {
      const argv = ['adduser', '-D'];
      if (desired.uid !== undefined) argv.push('-u', String(desired.uid));
      if (desired.group) argv.push('-G', desired.group.label);
      if (desired.home !== undefined) argv.push('-h', desired.home);
      if (!desired.manageHome) argv.push('-H');
      if (desired.shell !== undefined) argv.push('-s', desired.shell);
      if (desired.comment !== undefined) argv.push('-g', desired.comment);
      if (desired.system) argv.push('-S');
      await run([...argv, desired.name]);
      for (const group of desired.groups ?? []) await run(['addgroup', desired.name, group]);
      if (desired.password !== undefined) await setPasswordHash(context, desired.name, desired.password);
    },

    async modify(desired: DesiredUser, changes: Change[], current: ExistingUser): Promise<void> {
      const refused = provider.refuses(changes);
      if (refused) throw new UserError(refused); // the runner asks first; this guards a direct call
      for (const c of changes) {
        if (c.key !== 'groups') continue;
        for (const group of c.to.filter((g) => !current.groups.includes(g))) await run(['addgroup', desired.name, group]);
        if (!c.append) for (const group of current.groups.filter((g) => !c.to.includes(g))) await run(['delgroup', desired.name, group]);
      }
      if (changes.some((c) => c.key === 'password')) await setPasswordHash(context, desired.name, desired.password!);
    },

    async remove(name: string, removeHome: boolean): Promise<void> {
      await run(['deluser', ...(removeHome ? ['--remove-home'] : []), name]);
    },
  };
  return provider;
}
