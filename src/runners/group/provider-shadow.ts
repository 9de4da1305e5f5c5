// The group provider of shadow-utils: groupadd, groupmod, groupdel and gpasswd, run without a shell.
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { COMMAND_TIMEOUT_MS } from '../lib/accounts/database.js';
import type { DesiredGroup } from './decide.js';
import type { GroupProvider } from './provider.js';

export class ShadowGroupProvider implements GroupProvider {
  readonly name = 'shadow';

  constructor(private readonly context: ProviderContext) {}

  refuses(): undefined {
    return undefined;
  }

  async create(desired: DesiredGroup): Promise<void> {
    const argv = ['groupadd'];
    if (desired.gid !== undefined) argv.push('-g', String(desired.gid));
    if (desired.system) argv.push('-r');
    await this.run([...argv, '--', desired.name]);
    if (desired.members?.length) await this.setMembers(desired.name, desired.members);
  }

  async modify(name: string, gid: number | undefined, members: string[] | undefined): Promise<void> {
    if (gid !== undefined) await this.run(['groupmod', '-g', String(gid), '--', name]);
    if (members !== undefined) await this.setMembers(name, members);
  }

  async remove(name: string): Promise<void> {
    await this.run(['groupdel', '--', name]);
  }

  /** `gpasswd -M`: the member list, exactly (in /etc/group and /etc/gshadow alike). */
  private async setMembers(name: string, members: string[]): Promise<void> {
    await this.run(['gpasswd', '-M', members.join(','), '--', name]);
  }

  private async run(argv: string[]): Promise<void> {
    await act(this.context, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
  }
}
