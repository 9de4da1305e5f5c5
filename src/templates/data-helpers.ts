// `data "ntp/servers"` and `data "nginx/workers" default=2`: a value of the tree's data hierarchy
// (docs/data.md), with its type (a list for {{#each}}, a map for {{#with}}, a number that compares
// as one). A key no level has is an error at the template's line, unless the call gives a default.
import { keyPathProblem } from '../data/hierarchy.js';
import type { DataFound, DataSource } from '../data/source.js';
import type { AttrValue } from '../shared/protocol.js';
import type { FactUse } from './fact-helpers.js';
import { HelperError, type HelperFn } from './helpers.js';

interface HelperOptions {
  hash?: Record<string, unknown>;
  loc?: { start: { line: number } };
}

/** onUse: told of each sensitive value a template reads, as a sensitive fact's use is (taint.ts). */
export function dataHelpers(data: DataSource | undefined, onUse: (use: FactUse) => void = () => undefined): Record<string, HelperFn> {
  return {
    data: (...all) => {
      const options = all[all.length - 1] as HelperOptions;
      if (all.length !== 2) throw new HelperError(`data takes 1 argument (a key such as "ntp/servers") and an optional default=VALUE, got ${all.length - 1} arguments`);
      const key = all[0];
      if (typeof key !== 'string') throw new HelperError('data: the key must be a string such as "ntp/servers"');
      const bad = keyPathProblem(key);
      if (bad) throw new HelperError(`data: ${bad}`);
      const hash = options.hash ?? {};
      const unknown = Object.keys(hash).filter((name) => name !== 'default');
      if (unknown.length > 0) throw new HelperError(`data: unknown option ${unknown.map((name) => `${name}=`).join(', ')} (the only one is default=VALUE)`);
      const found = data?.lookup(key);
      if (found === undefined) {
        if (Object.hasOwn(hash, 'default')) return hash.default;
        throw new HelperError(`data: ${missing(key, data)}; or give a default: {{data "${key}" default=...}}`);
      }
      if (found.sensitive) for (const value of leaves(found.value)) onUse({ name: `data:${key}`, value, line: options.loc?.start.line });
      return found.value;
    },
  };
}

function missing(key: string, data: DataSource | undefined): string {
  if (!data) return `no data for "${key}": this tree has no hierarchy.hcl at its root (docs/data.md)`;
  return `no level has the key "${key}" (levels searched: ${data.levels.length > 0 ? data.levels.join(', ') : 'none'}; see govern data --explain ${key})`;
}

/** The texts of a value, for masking and taint. */
function leaves(value: DataFound['value']): string[] {
  const out: string[] = [];
  const walk = (v: AttrValue) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
    else if (v !== null && String(v) !== '') out.push(String(v));
  };
  walk(value);
  return out;
}
