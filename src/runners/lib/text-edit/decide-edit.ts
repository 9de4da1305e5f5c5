// The part of an edit runner's decision (ini, block) that is about the file rather than its lines:
// a link or a special file refused, a missing file created or refused, absent being nothing to do
// for a missing file. Pure: each runner gives the edit of the content itself.
import { UserError } from '../../../shared/errors.js';
import { symlinkError } from '../file/errors.js';
import type { ParentState } from '../file/state.js';

/** What the runner found at the path. */
export type EditCurrent =
  | { type: 'absent'; parent: ParentState }
  | { type: 'file'; content: Buffer }
  | { type: 'symlink'; target: string }
  | { type: 'other'; kind: string };

export interface EditPlan {
  changed: boolean;
  /** What was done, lower case: "set memory_limit in [PHP] (line 4)". */
  summary: string;
  /** The file's new content, when it changes (or is created). */
  content?: Buffer;
  /** Worth a log line, not an error. */
  warnings: string[];
}

export interface EditFrame {
  path: string;
  ensure: 'present' | 'absent';
  create: boolean;
  /** What the runner puts in the file, for messages: "the key", "the block". */
  what: string;
}

/** "Would have set ..." in noop mode, else what was done. */
export function editMessage(plan: EditPlan, noop: boolean): string {
  return noop && plan.changed ? `Would have ${plan.summary}` : plan.summary;
}

export function unchanged(summary: string, warnings: string[] = []): EditPlan {
  return { changed: false, summary, warnings };
}

/** The plan for the file: `edit` decides on an existing file's content (an empty one for a file to create). */
export function decideEdit(frame: EditFrame, current: EditCurrent, noop: boolean, edit: (content: Buffer) => EditPlan): EditPlan {
  const { path, what } = frame;
  if (current.type === 'symlink') throw symlinkError(path, current.target);
  if (current.type === 'other') throw new UserError(`${path} is ${current.kind}, not a regular file; govern edits only a regular file`);
  if (current.type === 'file') return edit(current.content);
  if (frame.ensure === 'absent') return unchanged(`${path} does not exist: ${what} is absent`);
  const problem = !frame.create
    ? `${path} does not exist (set create = true to create it with ${what})`
    : current.parent !== 'directory'
      ? `the directory of ${path} ${current.parent === 'missing' ? 'does not exist' : 'is not a directory'}`
      : undefined;
  if (problem === undefined) {
    const plan = edit(Buffer.alloc(0));
    return { ...plan, summary: `created ${path} with ${what}` };
  }
  // In noop mode an earlier resource, not applied, may be what creates it.
  if (!noop) throw new UserError(problem);
  return { changed: true, summary: `added ${what} to ${path}, which does not exist yet`, warnings: [`${problem}; an earlier resource may create it, otherwise the real run fails`] };
}
