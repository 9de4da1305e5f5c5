// What a group provider is: one tool's commands that create, change and remove a group
// (provider-TOOL.ts, listed in providers.ts). Reading the group is the same for every one (read.ts).
import type { AccountProviderName } from '../lib/accounts/provider-choice.js';
import type { DesiredGroup } from './decide.js';

export interface GroupProvider {
  readonly name: AccountProviderName;
  /** Why this change cannot be made with this tool (checked before anything is done, noop too), or undefined. */
  refuses(change: { gid?: number }): string | undefined;
  create(desired: DesiredGroup): Promise<void>;
  /** gid: the new gid; members: the whole new list, `current` the list it replaces. */
  modify(name: string, gid: number | undefined, members: string[] | undefined, current: string[]): Promise<void>;
  remove(name: string): Promise<void>;
}
