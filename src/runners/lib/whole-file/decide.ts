// The decision for a file a runner writes whole (a unit, a drop-in, a cron.d entry): the content it
// wants, owned by root and with a fixed mode, or no file. Pure: the decision table of these runners'
// files, with its noop wording; each runner puts its own words around it.
import { UserError } from '../../../shared/errors.js';
import { symlinkError } from '../file/errors.js';

/** What is at the path. */
export type WholeFileCurrent =
  | { type: 'absent' }
  | { type: 'file'; content: Buffer; mode: number; uid: number; gid: number }
  | { type: 'symlink'; target: string }
  | { type: 'other'; kind: string };

export interface WholeFileDesired {
  path: string;
  ensure: 'present' | 'absent';
  /** present: the whole content. */
  content?: Buffer;
  mode: number;
  uid: number;
  gid: number;
}

export interface WholeFilePlan {
  changed: boolean;
  action: 'none' | 'write' | 'remove';
  /** What was done, lower case: "created /etc/x", "changed /etc/x (content, mode 0600 -> 0644)". */
  summary: string;
  /** The content differs from an existing file's: worth a diff. */
  contentChanged: boolean;
}

/** "Would have created /etc/x" in noop mode, else what was done. */
export function wholeFileMessage(plan: WholeFilePlan, noop: boolean): string {
  return noop && plan.changed ? `Would have ${plan.summary}` : plan.summary;
}

export function decideWholeFile(desired: WholeFileDesired, current: WholeFileCurrent): WholeFilePlan {
  const { path } = desired;
  if (current.type === 'symlink') throw symlinkError(path, current.target);
  if (current.type === 'other') throw new UserError(`${path} is ${current.kind}, not a regular file`);
  if (desired.ensure === 'absent') {
    return current.type === 'absent' ? none(`${path} absent`) : { changed: true, action: 'remove', summary: `removed ${path}`, contentChanged: false };
  }
  if (!desired.content) throw new Error('present needs its content');
  if (current.type === 'absent') return { changed: true, action: 'write', summary: `created ${path}`, contentChanged: false };
  const changes: string[] = [];
  const contentChanged = !current.content.equals(desired.content);
  if (contentChanged) changes.push('content');
  if (current.mode !== desired.mode) changes.push(`mode ${octal(current.mode)} -> ${octal(desired.mode)}`);
  if (current.uid !== desired.uid || current.gid !== desired.gid) changes.push(`owner ${current.uid}:${current.gid} -> ${desired.uid}:${desired.gid}`);
  if (changes.length === 0) return none(`${path} up to date`);
  return { changed: true, action: 'write', summary: `changed ${path} (${changes.join(', ')})`, contentChanged };
}

function none(summary: string): WholeFilePlan {
  return { changed: false, action: 'none', summary, contentChanged: false };
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
