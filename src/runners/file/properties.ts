// The file runner's arguments, validated and typed before anything looks at the system.
import nodePath from 'node:path';
import type { Params } from '../../shared/protocol.js';
import { checkChars, describeChar, ValidationError, type CharRule } from '../../shared/validate.js';
import type { Ensure } from './state.js';

/** A user or group as the state file names it: a name to look up, or a numeric id. */
export type AccountSpec = { kind: 'name'; name: string } | { kind: 'id'; id: number };

export interface FileProperties {
  path: string;
  ensure: Ensure;
  contents?: string;
  /** Absolute: a relative `source` is resolved against GOVERN_STATE_DIR. */
  source?: string;
  owner?: AccountSpec;
  group?: AccountSpec;
  mode?: number;
  force: boolean;
  showDiff: boolean;
}

export const KNOWN_KEYS = ['ensure', 'contents', 'source', 'owner', 'group', 'mode', 'force', 'show_diff'];
const ENSURE_VALUES: Ensure[] = ['present', 'absent', 'directory'];

/** User and group names go to `getent` as an argument: no spaces, no colons, no leading "-". */
export const ACCOUNT_NAME: CharRule = { what: 'user or group name', char: /[A-Za-z0-9._@$-]/, allowed: 'letters, digits and . _ @ $ -' };
/** 2^32-1 is chown's "leave unchanged", not an id. */
const MAX_ID = 0xfffffffe;

export function parseProperties(name: string, params: Params, stateDir: string | undefined): FileProperties {
  const unknown = params.keys().filter((key) => !KNOWN_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new ValidationError(`unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the file runner takes ${KNOWN_KEYS.join(', ')})`);
  }
  const path = checkPath(name);
  const ensure = params.get('ensure');
  if (ensure === undefined) throw new ValidationError(`ensure is required (${ENSURE_VALUES.join(', ')})`);
  if (!ENSURE_VALUES.includes(ensure as Ensure)) throw new ValidationError(`ensure must be one of ${ENSURE_VALUES.join(', ')}, not "${ensure}"`);

  const props: FileProperties = {
    path,
    ensure: ensure as Ensure,
    force: params.bool('force', false),
    showDiff: params.bool('show_diff', true),
  };

  const contents = params.get('contents');
  const source = params.get('source');
  if (contents !== undefined && source !== undefined) throw new ValidationError('contents and source are mutually exclusive: give one of them');
  if ((contents !== undefined || source !== undefined) && props.ensure !== 'present') {
    throw new ValidationError(`${contents !== undefined ? 'contents' : 'source'} is only for ensure = present, not ${props.ensure}`);
  }
  if (contents !== undefined) props.contents = contents;
  if (source !== undefined) props.source = resolveSource(source, stateDir);

  // Required so that nothing is created with default or inherited permissions; an absent path has none.
  const required = props.ensure !== 'absent';
  const owner = params.get('owner');
  const group = params.get('group');
  const mode = params.get('mode');
  const missing = [['owner', owner], ['group', group], ['mode', mode]].filter(([, v]) => v === undefined).map(([k]) => k);
  if (required && missing.length > 0) throw new ValidationError(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required for ensure = ${props.ensure}`);
  if (owner !== undefined) props.owner = parseAccount('owner', owner);
  if (group !== undefined) props.group = parseAccount('group', group);
  if (mode !== undefined) props.mode = parseMode(mode);
  return props;
}

/** The managed path: absolute and clean, so it names exactly one place. */
export function checkPath(path: string): string {
  if (path === '') throw new ValidationError('the path is empty');
  if (path.includes('\0')) throw new ValidationError(`path ${JSON.stringify(path)} contains a NUL character`);
  if (!path.startsWith('/')) throw new ValidationError(`path ${JSON.stringify(path)} must be absolute (start with "/")`);
  if (path === '/') throw new ValidationError('the root directory "/" cannot be managed');
  if (path.endsWith('/')) throw new ValidationError(`path ${JSON.stringify(path)} must not end with "/"`);
  if (path.includes('//')) throw new ValidationError(`path ${JSON.stringify(path)} must not contain "//"`);
  for (const part of path.split('/')) {
    if (part === '.' || part === '..') throw new ValidationError(`path ${JSON.stringify(path)} must be clean: it contains a "${part}" component`);
  }
  return path;
}

/** "0644", "644", "0o755", "0O700": octal permission bits, at most 0777. */
export function parseMode(text: string): number {
  if (text === '') throw new ValidationError('mode is empty (give octal permissions such as 0644)');
  const digits = /^0[oO]/.test(text) ? text.slice(2) : text;
  if (digits === '') throw new ValidationError(`mode ${JSON.stringify(text)} has no digits after "${text}"`);
  for (const ch of digits) {
    if (ch < '0' || ch > '7') throw new ValidationError(`mode ${JSON.stringify(text)} is not octal: character ${describeChar(ch)} is not a digit 0-7`);
  }
  const value = parseInt(digits, 8);
  if (value > 0o777) {
    throw new ValidationError(`mode ${JSON.stringify(text)} is above 0777: setuid, setgid and sticky bits cannot be set with mode`);
  }
  return value;
}

export function formatMode(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}

/** A name, or a decimal id (a name cannot be all digits). */
export function parseAccount(key: 'owner' | 'group', text: string): AccountSpec {
  if (text === '') throw new ValidationError(`${key} is empty`);
  if (/^[0-9]+$/.test(text)) {
    const id = Number(text);
    if (!Number.isSafeInteger(id) || id > MAX_ID) throw new ValidationError(`${key} id ${text} is out of range (0-${MAX_ID})`);
    return { kind: 'id', id };
  }
  checkChars({ ...ACCOUNT_NAME, what: `${key} name` }, text);
  return { kind: 'name', name: text };
}

function resolveSource(source: string, stateDir: string | undefined): string {
  if (source === '') throw new ValidationError('source is empty');
  if (source.includes('\0')) throw new ValidationError('source contains a NUL character');
  if (nodePath.isAbsolute(source)) return source;
  if (stateDir === undefined || stateDir === '') {
    throw new ValidationError(`source ${JSON.stringify(source)} is relative and GOVERN_STATE_DIR is not set: give an absolute path or set GOVERN_STATE_DIR`);
  }
  return nodePath.resolve(stateDir, source);
}
