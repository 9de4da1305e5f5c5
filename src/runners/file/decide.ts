// The decision: desired properties + what is on disk -> one action and its message. Pure: it holds
// the seed's decision table and noop messages, and the checks in the seed's order (type, SHA-256
// of the content, owner, group, mode). It also holds the desired-state check run after applying.
import { UserError } from '../../shared/errors.js';
import { symlinkError } from '../lib/file/errors.js';
import { formatMode } from '../../shared/values.js';
import type { AttributeNames, ParentState, Attributes, Current, Replacing } from '../lib/file/state.js';
import type { Desired } from './desired.js';

export type Action =
  | { kind: 'none' }
  /** Store: write a regular file atomically. keepContent: content not managed, copy the current bytes. */
  | { kind: 'store'; replacing: Replacing; recursive: boolean; keepContent: boolean }
  | { kind: 'create-directory'; replacing: 'nothing' | 'file' }
  | { kind: 'update-directory' }
  | { kind: 'remove'; type: 'file' | 'directory' | 'link'; recursive: boolean }
  /** Make the path a link: a new link renamed over what is there (a directory is removed first). */
  | { kind: 'link'; replacing: Replacing; recursive: boolean }
  /** The link is right; only its own owner or group changes. */
  | { kind: 'update-link' };

export interface Plan {
  action: Action;
  changed: boolean;
  /** What was done, lower case: "created the file", "changed mode 0600 -> 0644". */
  summary: string;
  /** The content of an existing file changes (the runner shows a diff). */
  contentChanged: boolean;
  /** Things worth a log line that are not errors in noop mode. */
  warnings: string[];
}

/** The result message: the seed's noop wording ("Would have created the file"), or what was done. */
export function planMessage(plan: Plan, noop: boolean): string {
  return noop && plan.changed ? `Would have ${plan.summary}` : plan.summary;
}

export function decide(desired: Desired, current: Current, noop: boolean): Plan {
  const { path } = desired;
  if (desired.ensure === 'link') return decideLink(desired, current, noop);
  if (current.type === 'symlink') {
    // absent removes the link itself, never what it points to
    if (desired.ensure === 'absent') return change({ kind: 'remove', type: 'link', recursive: false }, `removed the symbolic link (to ${current.target})`);
    throw symlinkError(path, current.target);
  }
  if (current.type === 'other') throw new UserError(`${path} is ${current.kind}, not a regular file or directory; govern does not replace it`);

  switch (desired.ensure) {
    case 'absent':
      if (current.type === 'absent') return unchanged('already absent');
      if (current.type === 'file') return change({ kind: 'remove', type: 'file', recursive: false }, 'removed the file');
      return change({ kind: 'remove', type: 'directory', recursive: needsForce(desired, current.empty) }, 'removed the directory');

    case 'directory': {
      if (current.type === 'absent') return withParentCheck(desired, current.parent, noop, change({ kind: 'create-directory', replacing: 'nothing' }, 'created directory'));
      if (current.type === 'file') return change({ kind: 'create-directory', replacing: 'file' }, 'replaced the file with a directory');
      const differences = attributeChanges(desired, current.attrs, current.names);
      if (differences.length === 0) return unchanged('directory up to date');
      return change({ kind: 'update-directory' }, `changed ${differences.join(', ')}`);
    }

    case 'present': {
      const keepContent = desired.content === undefined;
      if (current.type === 'absent') {
        return withParentCheck(desired, current.parent, noop, change({ kind: 'store', replacing: 'nothing', recursive: false, keepContent: false }, 'created the file'));
      }
      if (current.type === 'directory') {
        const recursive = needsForce(desired, current.empty);
        return change({ kind: 'store', replacing: 'directory', recursive, keepContent: false }, 'replaced the directory with a file');
      }
      const differences: string[] = [];
      const contentChanged = desired.content !== undefined && desired.content.sha256 !== current.sha256;
      if (contentChanged) differences.push(`content sha256:${short(current.sha256)} -> sha256:${short(desired.content!.sha256)}`);
      differences.push(...attributeChanges(desired, current.attrs, current.names));
      if (differences.length === 0) return unchanged('file up to date');
      return { ...change({ kind: 'store', replacing: 'file', recursive: false, keepContent }, `changed ${differences.join(', ')}`), contentChanged };
    }
  }
}

/**
 * ensure = "link": a link already pointing at the target is kept (its own owner and group set when
 * given); one pointing elsewhere is replaced; a regular file or a directory only with force.
 */
function decideLink(desired: Desired, current: Current, noop: boolean): Plan {
  const target = desired.linkTarget!;
  const create = (replacing: Replacing, recursive: boolean, summary: string) => change({ kind: 'link', replacing, recursive }, summary);
  switch (current.type) {
    case 'absent':
      return withParentCheck(desired, current.parent, noop, create('nothing', false, `created symbolic link to ${target}`));
    case 'symlink': {
      const owners = attributeChanges({ ...desired, mode: undefined }, current.attrs, current.names);
      if (current.target !== target) return create('link', false, `changed target ${current.target} -> ${target}${owners.length > 0 ? `, ${owners.join(', ')}` : ''}`);
      if (owners.length === 0) return unchanged('symbolic link up to date');
      return change({ kind: 'update-link' }, `changed ${owners.join(', ')}`);
    }
    case 'file':
      if (!desired.force) throw new UserError(`${desired.path} is a regular file; set force = true to replace it with a symbolic link`);
      return create('file', false, `replaced the file with a symbolic link to ${target}`);
    case 'directory':
      if (!desired.force) throw new UserError(`${desired.path} is a directory; set force = true to replace it (and everything in it) with a symbolic link`);
      return create('directory', current.empty !== true, `replaced the directory with a symbolic link to ${target}`);
    case 'other':
      throw new UserError(`${desired.path} is ${current.kind}, not a regular file, directory or symbolic link; govern does not replace it`);
  }
}

/** After applying: what still differs from the desired state (empty when it matches). */
export function mismatches(desired: Desired, current: Current): string[] {
  const wanted = desired.ensure === 'present' ? 'file' : desired.ensure === 'link' ? 'symlink' : desired.ensure;
  if (current.type !== wanted) return [`it is ${describeType(current)}, expected ${describeType({ type: wanted } as Current)}`];
  if (current.type === 'absent') return [];
  const found: string[] = [];
  if (current.type === 'symlink' && current.target !== desired.linkTarget) found.push(`it points to ${current.target}, expected ${desired.linkTarget}`);
  if (current.type === 'file' && desired.content !== undefined && current.sha256 !== desired.content.sha256) {
    found.push(`content has sha256 ${current.sha256}, expected ${desired.content.sha256}`);
  }
  const attrs = current.attrs;
  if (desired.owner && attrs.uid !== desired.owner.id) found.push(`owner is uid ${attrs.uid}, expected ${desired.owner.id}`);
  if (desired.group && attrs.gid !== desired.group.id) found.push(`group is gid ${attrs.gid}, expected ${desired.group.id}`);
  if (desired.mode !== undefined && attrs.mode !== desired.mode) found.push(`mode is ${formatMode(attrs.mode)}, expected ${formatMode(desired.mode)}`);
  return found;
}

function attributeChanges(desired: Desired, attrs: Attributes, names: AttributeNames | undefined): string[] {
  const changes: string[] = [];
  if (desired.owner && attrs.uid !== desired.owner.id) changes.push(`owner ${names?.owner ?? attrs.uid} -> ${desired.owner.label}`);
  if (desired.group && attrs.gid !== desired.group.id) changes.push(`group ${names?.group ?? attrs.gid} -> ${desired.group.label}`);
  if (desired.mode !== undefined && attrs.mode !== desired.mode) changes.push(`mode ${formatMode(attrs.mode)} -> ${formatMode(desired.mode)}`);
  return changes;
}

/** Removing or replacing a directory: an empty one freely, a non-empty one only with force. */
function needsForce(desired: Desired, empty: boolean | undefined): boolean {
  if (empty === true) return false;
  if (!desired.force) {
    throw new UserError(`${desired.path} is a non-empty directory; set force = true to remove it and everything in it`);
  }
  return true;
}

function withParentCheck(desired: Desired, parent: ParentState, noop: boolean, plan: Plan): Plan {
  if (parent === 'directory') return plan;
  const dir = desired.path.slice(0, desired.path.lastIndexOf('/')) || '/';
  const problem =
    parent === 'missing'
      ? `parent directory ${dir} does not exist (declare it as its own file resource with ensure = "directory")`
      : `the parent of ${desired.path} is not a directory`;
  // In noop mode an earlier resource of the same run may be the one that would create it.
  if (noop) return { ...plan, warnings: [...plan.warnings, `warning: ${problem}`] };
  throw new UserError(problem);
}

function describeType(current: Pick<Current, 'type'>): string {
  switch (current.type) {
    case 'absent':
      return 'absent';
    case 'file':
      return 'a regular file';
    case 'directory':
      return 'a directory';
    case 'symlink':
      return 'a symbolic link';
    default:
      return 'something else';
  }
}

function unchanged(summary: string): Plan {
  return { action: { kind: 'none' }, changed: false, summary, contentChanged: false, warnings: [] };
}

function change(action: Action, summary: string): Plan {
  return { action, changed: true, summary, contentChanged: false, warnings: [] };
}

function short(sha256: string): string {
  return sha256.slice(0, 12);
}
