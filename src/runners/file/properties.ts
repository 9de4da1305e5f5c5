// The file runner's properties, from its arguments as the description reads them, with the checks a
// description cannot express. Pure.
import nodePath from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';
import type { AccountSpec } from '../lib/accounts/lookup.js';
import type { Ensure } from './desired.js';

export interface FileProperties {
  path: string;
  ensure: Ensure;
  contents?: string;
  /** Absolute: a relative `source` is resolved against GOVERN_STATE_DIR. */
  source?: string;
  owner?: AccountSpec;
  group?: AccountSpec;
  mode?: number;
  /** ensure = "link": what the link points to, exactly as given. */
  target?: string;
  force: boolean;
  showDiff: boolean;
  /** A command checking new content before it replaces the file; % is the file to check. */
  validate?: string;
  /** Keep the content a change replaces (backup.ts). */
  backup: boolean;
  /** Remove the directory's entries the tree does not manage (purge.ts). */
  purge: boolean;
  /** Copy the `source` directory's tree into the directory (recurse.ts). */
  recurse: boolean;
}

/** 2^32-1 is chown's "leave unchanged", not an id. */
const MAX_ID = 0xfffffffe;

export function fileProperties(request: Pick<RunnerRequest<Values<typeof description>>, 'name' | 'values' | 'stateDir'>): FileProperties {
  const v = request.values;
  if (v.ensure === 'directory' && v.source !== undefined && !v.recurse) {
    throw new UserError('source with ensure = "directory" copies a directory tree only with recurse = true');
  }
  return {
    path: request.name,
    ensure: v.ensure,
    contents: v.contents,
    source: v.source === undefined ? undefined : resolveSource(v.source, request.stateDir),
    owner: v.owner === undefined ? undefined : parseAccount('owner', v.owner),
    group: v.group === undefined ? undefined : parseAccount('group', v.group),
    mode: v.mode,
    target: v.target,
    force: v.force,
    showDiff: v.show_diff,
    validate: v.validate,
    backup: v.backup,
    purge: v.purge,
    recurse: v.recurse,
  };
}

/** A name, or a decimal id (a name cannot be all digits). */
export function parseAccount(key: 'owner' | 'group', text: string): AccountSpec {
  if (!/^[0-9]+$/.test(text)) return { kind: 'name', name: text };
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id > MAX_ID) throw new UserError(`${key} id ${text} is out of range (0-${MAX_ID})`);
  return { kind: 'id', id };
}

function resolveSource(source: string, stateDir: string | undefined): string {
  if (nodePath.isAbsolute(source)) return source;
  if (stateDir === undefined || stateDir === '') {
    throw new UserError(`source ${JSON.stringify(source)} is relative and GOVERN_STATE_DIR is not set: give an absolute path or set GOVERN_STATE_DIR`);
  }
  return nodePath.resolve(stateDir, source);
}
