// The keys every edit runner (ini, block) shares, described once: the file's path, what a file it
// creates is given, `validate` and `backup`, and their reading into a target for edit.ts.
import { UserError } from '../../../shared/errors.js';
import type { AccountSpec } from '../accounts/lookup.js';
import { MAX_ACCOUNT_ID, OWNER_ACCOUNT } from '../accounts/names.js';
import { VALIDATE_KEY } from '../file/validate-content.js';

/** The mode of a file an edit runner creates when `mode` is not given. */
export const NEW_FILE_MODE = 0o644;

export const PATH_KEY = {
  type: 'path',
  clean: true,
  pattern: '/.+',
  what: 'a clean absolute path other than "/" (no "." or ".." component, no "//", no trailing "/")',
  required: true,
  help: 'the file to edit',
} as const;

export const EDIT_KEYS = {
  owner: { ...OWNER_ACCOUNT, help: 'the owner of a file the runner creates (a user name or a numeric uid; default: root); an existing file keeps its own' },
  group: { ...OWNER_ACCOUNT, help: 'the group of a file the runner creates (a group name or a numeric gid; default: root); an existing file keeps its own' },
  mode: { type: 'mode', max: 0o777, help: 'the permissions of a file the runner creates (default 0644); an existing file keeps its own' },
  validate: VALIDATE_KEY,
  backup: { type: 'boolean', default: false, help: 'keep the content a change replaces, in VAR_DIR/backup/PATH/TIME (VAR_DIR: the run\'s --var-dir, /var/lib/govern; root only; the newest 5 per file; govern backups lists and restores them)' },
} as const;

/** What edit.ts needs besides the decision. */
export interface EditTarget {
  path: string;
  validate?: string;
  backup: boolean;
  /** A file the runner creates. */
  newFile: { owner?: AccountSpec; group?: AccountSpec; mode: number };
}

interface EditValues {
  path: string;
  owner?: string;
  group?: string;
  mode?: number;
  validate?: string;
  backup: boolean;
}

export function editTarget(v: EditValues): EditTarget {
  return {
    path: v.path,
    validate: v.validate,
    backup: v.backup,
    newFile: { owner: account('owner', v.owner), group: account('group', v.group), mode: v.mode ?? NEW_FILE_MODE },
  };
}

/** A name, or a decimal id (a name cannot be all digits). */
function account(key: 'owner' | 'group', text: string | undefined): AccountSpec | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text)) return { kind: 'name', name: text };
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id > MAX_ACCOUNT_ID) throw new UserError(`${key} id ${text} is out of range (0-${MAX_ACCOUNT_ID})`);
  return { kind: 'id', id };
}
