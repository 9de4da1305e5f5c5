// The group runner's decision: desired properties + the group as it is -> the action and its
// message. Pure.
import { UserError } from '../../shared/errors.js';
import { change, unchanged, type Plan as AccountPlan } from '../lib/accounts/plan.js';

export interface DesiredGroup {
  name: string;
  ensure: 'present' | 'absent';
  gid?: number;
  system: boolean;
  /** Undefined: members are not managed. */
  members?: string[];
  membersMode: 'exact' | 'add';
}

export type CurrentGroup =
  | { exists: false }
  | {
      exists: true;
      gid: number;
      members: string[];
      /** Users whose primary group it is. */
      primaryOf: string[];
    };

export type Action =
  | { kind: 'none' }
  | { kind: 'create' }
  /** gid: groupmod -g; members: the whole new list. */
  | { kind: 'modify'; gid?: number; members?: string[] }
  | { kind: 'remove' };

export type Plan = AccountPlan<Action>;

export function decide(desired: DesiredGroup, current: CurrentGroup): Plan {
  const { name } = desired;
  if (desired.ensure === 'absent') {
    if (!current.exists) return unchanged(`group ${name} already absent`);
    if (current.primaryOf.length > 0) {
      const users = current.primaryOf.join(', ');
      throw new UserError(`group ${name} is the primary group of user ${users}: give ${current.primaryOf.length > 1 ? 'them' : 'it'} another group or remove ${current.primaryOf.length > 1 ? 'them' : 'it'} first`);
    }
    return change({ kind: 'remove' }, `removed group ${name}`);
  }
  if (!current.exists) {
    const details = [desired.gid !== undefined ? `gid ${desired.gid}` : undefined, desired.members?.length ? `members ${desired.members.join(',')}` : undefined].filter(
      (d) => d !== undefined,
    );
    return change({ kind: 'create' }, `created ${desired.system ? 'system ' : ''}group ${name}${details.length > 0 ? ` (${details.join(', ')})` : ''}`);
  }
  const action: Extract<Action, { kind: 'modify' }> = { kind: 'modify' };
  const said: string[] = [];
  if (desired.gid !== undefined && desired.gid !== current.gid) {
    action.gid = desired.gid;
    said.push(`gid ${current.gid} -> ${desired.gid} (files still owned by gid ${current.gid} were not changed)`);
  }
  const members = membersChange(desired, current.members);
  if (members) {
    action.members = members.list;
    said.push(['members', ...members.added.map((m) => `+${m}`), ...members.removed.map((m) => `-${m}`)].join(' '));
  }
  if (said.length === 0) return unchanged(`group ${name} up to date`);
  return change(action, `changed ${said.join(', ')}`);
}

/** The member list to set, when it differs: exact, or the current one plus the missing. */
function membersChange(desired: DesiredGroup, current: string[]): { list: string[]; added: string[]; removed: string[] } | undefined {
  if (desired.members === undefined) return undefined;
  const added = desired.members.filter((m) => !current.includes(m));
  const removed = desired.membersMode === 'exact' ? current.filter((m) => !desired.members!.includes(m)) : [];
  if (added.length === 0 && removed.length === 0) return undefined;
  return { list: desired.membersMode === 'exact' ? desired.members : [...current, ...added], added, removed };
}

export function mismatches(desired: DesiredGroup, current: CurrentGroup): string[] {
  if (desired.ensure === 'absent') return current.exists ? ['the group still exists'] : [];
  if (!current.exists) return ['the group does not exist'];
  const found: string[] = [];
  if (desired.gid !== undefined && desired.gid !== current.gid) found.push(`gid is ${current.gid}, expected ${desired.gid}`);
  if (membersChange(desired, current.members)) found.push(`members are ${current.members.join(',') || '(none)'}, expected ${desired.members!.join(',') || '(none)'}`);
  return found;
}
