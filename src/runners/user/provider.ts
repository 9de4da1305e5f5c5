// What a user provider is: one tool's commands that create, change and remove an account
// (provider-TOOL.ts, listed in providers.ts). Reading the account is the same for every one (read.ts).
import type { AccountProviderName } from '../lib/accounts/provider-choice.js';
import type { Change, CurrentUser, DesiredUser } from './decide.js';

export type ExistingUser = Extract<CurrentUser, { exists: true }>;

export interface UserProvider {
  readonly name: AccountProviderName;
  /** Why these changes cannot be made with this tool (checked before anything is done, noop too), or undefined. */
  refuses(changes: Change[]): string | undefined;
  create(desired: DesiredUser): Promise<void>;
  modify(desired: DesiredUser, changes: Change[], current: ExistingUser): Promise<void>;
  remove(name: string, removeHome: boolean): Promise<void>;
  /** The password hash, where the tool reads it itself (pw: no shadow database for getent); else getent shadow. */
  passwordHash?(name: string): Promise<string | undefined>;
}
