// hierarchy.hcl, once rendered and parsed: the levels, most specific first, each a data file under
// data/ named without its extension, and how the values of some keys merge across levels
// (docs/data.md). Every problem of the file is reported at once, at its line.
import type { HclFile } from '../hcl/syntax.js';
import { UserError, type Location, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { didYouMean } from '../shared/suggest.js';
import { isDataMap, isMergeStrategy, MERGE_STRATEGIES, type MergeStrategy } from './merge.js';

export const HIERARCHY_FILE = 'hierarchy.hcl';
/** The directory of the levels' data files, beside hierarchy.hcl. */
export const DATA_DIR = 'data';

/** The data key naming the modules a host applies: its values join as `unique` unless merge says otherwise. */
export const MODULES_KEY = 'modules';

export interface Level {
  /** As rendered: `roles/web`. */
  name: string;
  at: Location;
  /** `{ name = "...", required = true }`: a host for which this level has no file is an error. */
  required?: boolean;
  /** `{ name = "...", optional = true }`: no warning when a level named from facts has no file. */
  optional?: boolean;
}

export interface Hierarchy {
  levels: Level[];
  /** Keys whose values merge, with the strategy; every other key takes the first level's value. */
  merge: Map<string, { strategy: MergeStrategy; at?: Location }>;
}

/** A level names a file under data/: segments of letters, digits, `_`, `-` and `.`, joined by `/`. */
const LEVEL_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** A key path: segments joined by `/` (`ntp/servers`), none empty. One expression, not a split: `{{data}}` checks its key at each call. */
const KEY_PATH = /^[^/\s]+(?:\/[^/\s]+)*$/;

export function keyPathProblem(key: string): string | undefined {
  if (!KEY_PATH.test(key)) return `"${key}" is not a data key (names joined by "/", such as "ntp/servers")`;
  return undefined;
}

/** where: the source location of a line of the rendered text; itemAt: of a list's item (`levels/2`), when known. */
export function readHierarchy(parsed: HclFile, where: (renderedLine: number) => Location, itemAt?: (key: string) => Location | undefined): Hierarchy {
  const problems: Problem[] = [];
  const hierarchy: Hierarchy = { levels: [], merge: new Map([[MODULES_KEY, { strategy: 'unique' }]]) };
  let sawLevels = false;
  for (const item of parsed.items) {
    const at = where(item.at.line);
    const problem = (message: string) => problems.push({ ...at, message });
    if (item.kind === 'block') {
      problem(`block "${item.type}": ${HIERARCHY_FILE} holds two attributes, levels = [...] and merge = { ... }`);
    } else if (item.name === 'levels') {
      sawLevels = true;
      readLevels(item.value, (i) => itemAt?.(`levels/${i}`) ?? at, hierarchy.levels, (message, i) => problems.push({ ...(itemAt?.(`levels/${i}`) ?? at), message }));
    } else if (item.name === 'merge') {
      readMerge(item.value, at, hierarchy.merge, problem);
    } else {
      problem(`unknown attribute "${item.name}"${didYouMean(item.name, ['levels', 'merge'])}: ${HIERARCHY_FILE} holds levels = [...] and merge = { ... }`);
    }
  }
  if (!sawLevels && problems.length === 0) problems.push({ ...where(1), line: undefined, message: 'no levels = [...]: list the data files to look in, most specific first, such as ["hosts/{{fact "hostname"}}", "common"]' });
  if (problems.length > 0) throw new UserError(problems);
  return hierarchy;
}

/** Each level at its own line: a warning or an error about one points there. */
function readLevels(value: AttrValue, at: (index: number) => Location, levels: Level[], problem: (message: string, index?: number) => void): void {
  if (!Array.isArray(value)) {
    problem(LEVELS_SHAPE);
    return;
  }
  value.forEach((entry, i) => {
    const level = levelEntry(entry, (message) => problem(message, i));
    if (level === undefined) return;
    const why = levelProblem(level.name);
    if (why) problem(why, i);
    else levels.push({ ...level, at: at(i) });
  });
}

const LEVELS_SHAPE = 'levels must be a list of data file names, most specific first, such as ["roles/{{fact "role"}}", "common"]; a level that must have a file is written { name = "roles/{{fact "role"}}", required = true }';
const LEVEL_KEYS = ['name', 'required', 'optional'];

/** A level as written: its name, or `{ name = ..., required = true }` / `{ name = ..., optional = true }`. */
function levelEntry(entry: AttrValue, problem: (message: string) => void): Omit<Level, 'at'> | undefined {
  if (typeof entry === 'string') return { name: entry };
  if (!isDataMap(entry) || typeof entry.name !== 'string') {
    problem(LEVELS_SHAPE);
    return undefined;
  }
  const unknown = Object.keys(entry).filter((key) => !LEVEL_KEYS.includes(key));
  for (const key of unknown) problem(`level "${entry.name}": unknown key "${key}"${didYouMean(key, LEVEL_KEYS)} (a level is { name = "...", required = true } or { name = "...", optional = true })`);
  const flags = ['required', 'optional'].filter((key) => entry[key] !== undefined && typeof entry[key] !== 'boolean');
  for (const key of flags) problem(`level "${entry.name}": ${key} is true or false`);
  if (entry.required === true && entry.optional === true) problem(`level "${entry.name}": required and optional at once: choose one`);
  if (unknown.length > 0 || flags.length > 0) return undefined;
  return { name: entry.name, ...(entry.required === true ? { required: true } : {}), ...(entry.optional === true ? { optional: true } : {}) };
}

function levelProblem(name: string): string | undefined {
  const shown = JSON.stringify(name);
  if (/\.(hcl|json|ya?ml)$/.test(name)) return `level ${shown}: name the data file without its extension (govern finds .hcl, .json, .yaml or .yml)`;
  const segments = name.split('/');
  if (segments.some((segment) => segment === '')) return `level ${shown} has an empty part: does a fact it uses have an empty value?`;
  if (!segments.every((segment) => LEVEL_SEGMENT.test(segment))) return `level ${shown} is not a data file name under data/ (letters, digits, _, - and ., parts joined by /)`;
  return undefined;
}

function readMerge(value: AttrValue, at: Location, merge: Hierarchy['merge'], problem: (message: string) => void): void {
  if (!isDataMap(value)) {
    problem(`merge must be a map of data keys to strategies, such as { "ntp/servers" = "unique", "users" = "deep" }`);
    return;
  }
  for (const [key, strategy] of Object.entries(value)) {
    const badKey = keyPathProblem(key);
    if (badKey) problem(`merge: ${badKey}`);
    else if (!isMergeStrategy(strategy)) problem(`merge: "${key}" = ${JSON.stringify(strategy)}: the strategy is one of ${MERGE_STRATEGIES.map((s) => `"${s}"`).join(', ')}${typeof strategy === 'string' ? didYouMean(strategy, MERGE_STRATEGIES) : ''}`);
    else merge.set(key, { strategy, at });
  }
}
