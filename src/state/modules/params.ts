// An instance's parameters: each one the instance sets, else the data hierarchy's `MODULE/PARAM`,
// else the declared default (Puppet's automatic parameter lookup), checked against its type and
// allowed values. Every problem names where the value was written: the instance, or the data level.
import type { TreeData } from '../../data/lookup.js';
import type { DataOrigin, DataSource } from '../../data/source.js';
import type { Location, Problem } from '../../shared/errors.js';
import type { AttrValue } from '../../shared/protocol.js';
import { didYouMean } from '../../shared/suggest.js';
import type { InstanceDecl, ParamOrigin, ParamType, VariableDecl } from './declarations.js';
import { matchesWhole, matchStopped } from '../../shared/bounded-match.js';

export interface ResolvedParams {
  vars: { [key: string]: AttrValue };
  problems: Problem[];
  /** Parameters whose value is sensitive (a sensitive fact's in the instance's file, or a decrypted data value). */
  sensitive: string[];
  /** Where each parameter's value came from. */
  origins: Record<string, ParamOrigin>;
}

export function resolveParams(instance: InstanceDecl, variables: readonly VariableDecl[], data: DataSource | undefined): ResolvedParams {
  const problems: Problem[] = [];
  const declared = new Map(variables.map((v) => [v.name, v]));
  const what = `module "${instance.name}"${instance.name === instance.source ? '' : ` (${instance.source})`}`;
  for (const name of Object.keys(instance.params)) {
    if (declared.has(name)) continue;
    const known = [...declared.keys()];
    problems.push({ ...(instance.keyAt[name] ?? instance.at), message: `${what}: unknown parameter "${name}"${didYouMean(name, known)} (${known.length > 0 ? `its parameters: ${known.join(', ')}` : 'it has no parameters'})` });
  }
  const vars: { [key: string]: AttrValue } = {};
  const sensitive: string[] = [];
  const origins: Record<string, ParamOrigin> = {};
  const secretIn = (value: AttrValue) => (instance.sensitiveValues ?? []).some((secret) => JSON.stringify(value).includes(JSON.stringify(secret).slice(1, -1)));
  for (const v of variables) {
    let value: AttrValue | undefined;
    let where: Location;
    let from: string;
    let origin: Omit<ParamOrigin, 'value'>;
    let unread = false;
    if (Object.hasOwn(instance.params, v.name)) {
      value = instance.params[v.name];
      where = instance.keyAt[v.name] ?? instance.at;
      from = '';
      origin = { from: 'instance', at: where };
      if (secretIn(value) || instance.sensitiveParams?.includes(v.name)) {
        sensitive.push(v.name);
        origin.sensitive = true;
      }
    } else {
      const found = data?.lookup(`${instance.source}/${v.name}`);
      if (found) {
        value = found.value;
        where = originLocation(found.origins[0]);
        from = ` (from data "${instance.source}/${v.name}" at level "${found.origins[0].level}")`;
        origin = { from: 'data', at: where, data: { key: `${instance.source}/${v.name}`, levels: found.origins.map((o) => o.level) } };
        // A decrypted value: it taints the module's resources that use the parameter (expand.ts).
        if (found.sensitive) {
          sensitive.push(v.name);
          origin.sensitive = true;
        }
        unread = found.unread === true;
      } else {
        value = v.default;
        where = v.at;
        from = ' (its default)';
        origin = { from: 'default', at: where };
      }
    }
    if (value === undefined) {
      problems.push({ ...instance.at, message: `${what}: the parameter "${v.name}" is required: set it here, or in data as "${instance.source}/${v.name}"` });
      continue;
    }
    // A preview's <sensitive> for a value it could not decrypt has the value's shape, not its text.
    const bad = unread ? (hasType(v.type, value) ? undefined : `${JSON.stringify(value)} is not a ${v.type}`) : valueProblem(v, value);
    // A sensitive value stays out of the message.
    if (bad) problems.push({ ...where, message: `${what}: ${v.name}${from}: ${sensitive.includes(v.name) ? `the (sensitive) value is not a valid ${v.type}` : bad}` });
    else {
      vars[v.name] = value;
      origins[v.name] = { value, ...origin };
    }
  }
  return { vars, problems, sensitive, origins };
}

function originLocation(origin: DataOrigin): Location {
  return { file: origin.file, ...(origin.line !== undefined ? { line: origin.line } : {}) };
}

/** Why a value does not fit its declaration, or undefined. */
export function valueProblem(v: Pick<VariableDecl, 'type' | 'values' | 'pattern'>, value: AttrValue): string | undefined {
  if (!hasType(v.type, value)) return `${JSON.stringify(value)} is not a ${v.type}`;
  if (v.values && !v.values.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
    return `${JSON.stringify(value)} is not one of ${v.values.map((x) => JSON.stringify(x)).join(', ')}`;
  }
  if (v.pattern !== undefined && typeof value === 'string') {
    const matches = matchesWhole(v.pattern, value, 'u');
    if (matches === undefined) return matchStopped(v.pattern, value);
    if (!matches) return `${JSON.stringify(value)} does not match the pattern ${JSON.stringify(v.pattern)}`;
  }
  return undefined;
}

export function hasType(type: ParamType, value: AttrValue): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'bool':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'map':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

/**
 * A data key under a module's name that is none of its parameters (`web/servr_name`): a warning with
 * the parameter it most likely means, since a typo there would otherwise leave the default in place.
 */
export function unknownDataParams(source: string, variables: readonly VariableDecl[], data: TreeData | undefined): string[] {
  if (!data) return [];
  const names = variables.map((v) => v.name);
  return data.keysUnder(source)
    .filter(({ key }) => !names.includes(key))
    .map(({ key, at }) => `${at}: data "${source}/${key}" is no parameter of module "${source}"${didYouMean(key, names)} (its parameters: ${names.join(', ') || 'none'})`);
}
