// The user runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import { listManaged } from '../lib/accounts/managed-list.js';
import type { AccountProviderName } from '../lib/accounts/provider-choice.js';
import type { description } from './description.js';

/** A group as `group` names it: a name to look up, or a gid. */
export type GroupSpec = { kind: 'name'; name: string } | { kind: 'id'; id: number };

export interface UserProperties {
  name: string;
  ensure: 'present' | 'absent';
  uid?: number;
  group?: GroupSpec;
  /** Undefined: supplementary groups are not managed. */
  groups?: string[];
  groupsMode: 'exact' | 'add';
  home?: string;
  manageHome: boolean;
  shell?: string;
  comment?: string;
  system: boolean;
  password?: string;
  /** Undefined: chosen from the commands on PATH. */
  provider?: AccountProviderName;
}

export function userProperties(request: Pick<RunnerRequest<Values<typeof description>>, 'name' | 'values' | 'params'>): UserProperties {
  const v = request.values;
  return {
    name: request.name,
    ensure: v.ensure,
    uid: v.uid,
    group: v.group === undefined ? undefined : groupSpec(v.group),
    groups: listManaged(request, 'groups', 'groups_mode'),
    groupsMode: v.groups_mode,
    home: v.home,
    manageHome: v.managehome,
    shell: v.shell,
    comment: v.comment,
    system: v.system,
    password: v.password,
    provider: v.provider,
  };
}

/** A name, or a decimal gid (a name never starts with a digit). */
export function groupSpec(text: string): GroupSpec {
  return /^[0-9]+$/.test(text) ? { kind: 'id', id: Number(text) } : { kind: 'name', name: text };
}
