// The keys the structured-document runners (json, yaml, toml) share, described once: the key path
// and the value, read into the path's segments and a typed value (docs/json.md, "Values").
import { UserError } from '../../../shared/errors.js';
import { EDIT_KEYS, PATH_KEY } from '../text-edit/keys.js';

export const DOC_KEYS = {
  path: PATH_KEY,
  key: {
    type: 'string',
    pattern: '[^/\\n\\r]+(/[^/\\n\\r]+)*',
    what: 'a key path: keys separated by "/", none empty (~1 for a "/" inside a key, ~0 for "~")',
    required: true,
    help: 'where the value is: server/port is the key port of the map server; a number names an item of a list by its index (0 is the first)',
  },
  value: { type: 'string', help: 'the value (present: required), typed as `type` says' },
  type: {
    type: 'enum',
    values: ['auto', 'string', 'json'],
    default: 'auto',
    help: 'auto: true and false are booleans, a number is a number, a map ({ ... } in HCL) is a map, anything else a string; string: the text as it is ("8080" stays a string); json: the text is a JSON value (a list, null)',
  },
  ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present: the key path holds the value (maps on the way made); absent: the key (or list item) removed' },
  create: { type: 'boolean', default: true, help: 'create a missing file holding just the value; false: a missing file is an error' },
  ...EDIT_KEYS,
} as const;

export const DOC_RULES = [
  { when: { ensure: ['present'] }, require: ['value'] },
  { only_when: { ensure: ['present'] }, keys: ['value', 'type', 'create', 'owner', 'group', 'mode'] },
] as const;

/** "server/port" -> ["server", "port"]; ~1 and ~0 stand for "/" and "~" (as in a JSON pointer). */
export function keyPath(key: string): string[] {
  return key.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** The value as `type` reads the text. */
export function typedValue(text: string, type: 'auto' | 'string' | 'json'): unknown {
  if (type === 'string') return text;
  if (type === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UserError(`value ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text)} is not a JSON value (type = "json")`);
    }
  }
  if (text === 'true' || text === 'false') return text === 'true';
  if (NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text);
  // A map or a nested block arrives as its JSON (docs/runners.md, "Arguments").
  if (text.startsWith('{')) {
    try {
      const v = JSON.parse(text) as unknown;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v;
    } catch {
      // Text that only starts like a map is text.
    }
  }
  return text;
}
