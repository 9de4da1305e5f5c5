// The user runner's decision: desired properties + the account as it is -> the action and its
// message. Pure. Each property is compared on its own; only those that differ change.
import { UserError } from '../../shared/errors.js';
import { change, unchanged, type Plan as AccountPlan } from '../lib/accounts/plan.js';
import type { UserProperties } from './properties.js';
import { describeProcesses, type AccountProcess } from '../lib/accounts/processes.js';

/** A group resolved to its gid; `gid` undefined when it does not exist (yet: in noop, an earlier resource may create it). */
export interface ResolvedGroup {
  label: string;
  gid?: number;
}

/** The properties with the primary group resolved. */
export type DesiredUser = Omit<UserProperties, 'group'> & { group?: ResolvedGroup };

export type CurrentUser =
  | { exists: false }
  | {
      exists: true;
      uid: number;
      gid: number;
      /** The primary group's name, when it has one. */
      groupName?: string;
      /** Supplementary groups: those that list the user as a member. */
      groups: string[];
      home: string;
      shell: string;
      comment: string;
      /** The shadow password field, read only when a password is managed. */
      password?: string;
      processes: AccountProcess[];
    };

export type Change =
  | { key: 'uid'; to: number }
  | { key: 'group'; to: string }
  | { key: 'groups'; to: string[]; append: boolean }
  | { key: 'home'; to: string; move: boolean }
  | { key: 'shell'; to: string }
  | { key: 'comment'; to: string }
  | { key: 'password' };

export type Action = { kind: 'none' } | { kind: 'create' } | { kind: 'modify'; changes: Change[] } | { kind: 'remove'; removeHome: boolean };

export type Plan = AccountPlan<Action>;

export function decide(desired: DesiredUser, current: CurrentUser): Plan {
  const { name } = desired;
  if (desired.ensure === 'absent') {
    if (!current.exists) return unchanged(`user ${name} already absent`);
    refuseBusy(name, current, 'remove it');
    return change({ kind: 'remove', removeHome: desired.manageHome }, `removed user ${name}${desired.manageHome ? ` and its home ${current.home}` : ''}`);
  }
  if (!current.exists) {
    const details = [
      desired.uid !== undefined ? `uid ${desired.uid}` : undefined,
      desired.group ? `group ${desired.group.label}` : undefined,
      desired.groups?.length ? `groups ${desired.groups.join(',')}` : undefined,
      desired.home !== undefined ? `home ${desired.home}${desired.manageHome ? ' (created)' : ''}` : desired.manageHome ? 'home created' : undefined,
    ].filter((d) => d !== undefined);
    return change({ kind: 'create' }, `created ${desired.system ? 'system ' : ''}user ${name}${details.length > 0 ? ` (${details.join(', ')})` : ''}`);
  }

  const changes: Change[] = [];
  const said: string[] = [];
  if (desired.uid !== undefined && desired.uid !== current.uid) {
    changes.push({ key: 'uid', to: desired.uid });
    said.push(`uid ${current.uid} -> ${desired.uid} (${leftBehind(current.home, `uid ${current.uid}`)})`);
  }
  if (desired.group && desired.group.gid !== current.gid) {
    changes.push({ key: 'group', to: desired.group.label });
    const from = current.groupName ?? `gid ${current.gid}`;
    said.push(`group ${from} -> ${desired.group.label} (${leftBehind(current.home, `group ${from}`)})`);
  }
  if (desired.groups !== undefined) {
    const missing = desired.groups.filter((g) => !current.groups.includes(g));
    const extra = desired.groupsMode === 'exact' ? current.groups.filter((g) => !desired.groups!.includes(g)) : [];
    if (missing.length > 0 || extra.length > 0) {
      changes.push(desired.groupsMode === 'exact' ? { key: 'groups', to: desired.groups, append: false } : { key: 'groups', to: missing, append: true });
      said.push(['groups', ...missing.map((g) => `+${g}`), ...extra.map((g) => `-${g}`)].join(' '));
    }
  }
  if (desired.home !== undefined && desired.home !== current.home) {
    changes.push({ key: 'home', to: desired.home, move: desired.manageHome });
    said.push(`home ${current.home} -> ${desired.home}${desired.manageHome ? ' (moved)' : ' (not moved: managehome is false)'}`);
  }
  if (desired.shell !== undefined && desired.shell !== current.shell) {
    changes.push({ key: 'shell', to: desired.shell });
    said.push(`shell ${current.shell || '(none)'} -> ${desired.shell}`);
  }
  if (desired.comment !== undefined && desired.comment !== current.comment) {
    changes.push({ key: 'comment', to: desired.comment });
    said.push(`comment ${JSON.stringify(current.comment)} -> ${JSON.stringify(desired.comment)}`);
  }
  if (desired.password !== undefined && desired.password !== current.password) {
    changes.push({ key: 'password' });
    said.push('password');
  }
  if (changes.length === 0) return unchanged(`user ${name} up to date`);
  // usermod refuses to change the uid, or to move the home, of a user with running processes.
  if (changes.some((c) => c.key === 'uid' || (c.key === 'home' && c.move))) refuseBusy(name, current, 'change its uid or move its home');
  return change({ kind: 'modify', changes }, `changed ${said.join(', ')}`);
}

/** After applying: what still differs (empty when it matches). The password is named, never shown. */
export function mismatches(desired: DesiredUser, current: CurrentUser): string[] {
  if (desired.ensure === 'absent') return current.exists ? ['the user still exists'] : [];
  if (!current.exists) return ['the user does not exist'];
  const found: string[] = [];
  const differs = (key: string, want: unknown, have: unknown) => {
    if (want !== undefined && want !== have) found.push(`${key} is ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`);
  };
  differs('uid', desired.uid, current.uid);
  differs('gid', desired.group?.gid, current.gid);
  differs('home', desired.home, current.home);
  differs('shell', desired.shell, current.shell);
  differs('comment', desired.comment, current.comment);
  if (desired.groups !== undefined) {
    const missing = desired.groups.filter((g) => !current.groups.includes(g));
    const extra = desired.groupsMode === 'exact' ? current.groups.filter((g) => !desired.groups!.includes(g)) : [];
    if (missing.length > 0 || extra.length > 0) found.push(`groups are ${current.groups.join(',') || '(none)'}, expected ${desired.groups.join(',') || '(none)'}`);
  }
  if (desired.password !== undefined && desired.password !== current.password) found.push('the password hash is not the one given');
  return found;
}

/** What usermod leaves as it was when an id changes: it re-owns only the home directory's files. */
function leftBehind(home: string, old: string): string {
  return `files outside ${home} still owned by ${old} were not changed`;
}

function refuseBusy(name: string, current: Extract<CurrentUser, { exists: true }>, what: string): void {
  if (current.processes.length === 0) return;
  throw new UserError(
    `user ${name} has running processes (${describeProcesses(current.processes)}); govern does not stop them: log the user out and stop them, then run again to ${what}`,
  );
}
