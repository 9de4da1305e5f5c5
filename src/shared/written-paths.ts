// The files a runner writes, as its description declares them (`writes`, docs/runners.md, "Files a
// runner writes"): templates of the resource's name and keys, which govern expands so that a
// directory's purge keeps them. The template syntax is checked here for the description checker,
// and expanded here for the core; where the host decides a path (a user's home), the caller says how.
import path from 'node:path';
import type { RunnerDescription, WrittenPath } from './description.js';
import { ATTRIBUTE_KEY } from './validate.js';

/** The filters a placeholder may take: `{name|slash_to_dot}` (sysctl's drop-in name for `a.b/c.d`). */
export const PLACEHOLDER_FILTERS = ['slash_to_dot'] as const;
const ENV_NAME = /^\$[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** What a resource holds, for expansion. */
export interface WrittenBy {
  name: string;
  attrs: Readonly<Record<string, unknown>>;
}

/** What of the host a template may name: its environment (`{$VAR}`, `~`) and its accounts (`~{KEY}`). */
export interface HostLookups {
  env: NodeJS.ProcessEnv;
  /** The home directory of the account of this name; undefined when there is none. */
  homeOf(user: string): string | undefined;
  /** The home of the user govern runs as, when HOME is not set. */
  ownHome(): string;
}

/** A path a resource writes: absolute, or a file name that counts in any directory (`*\/NAME`). */
export type Written = { path: string } | { anywhere: string };

/** The problems of one template, as phrases; `keys` undefined: any key. */
export function templateProblems(template: string, keys: ReadonlySet<string> | undefined): string[] {
  const problems: string[] = [];
  const { head, rest } = splitHome(template);
  if (head === undefined && !template.startsWith('/') && !template.startsWith('{$') && !template.startsWith('*/')) {
    problems.push('must start with /, ~/, ~{KEY}/, {$VARIABLE} or */');
  }
  if (template.startsWith('*/') && template.slice(2).includes('/')) problems.push('*/ takes a file name, without /');
  if (head !== undefined && head !== '' && !/^\{[^{}]*\}$/.test(head)) problems.push('~ is followed by / or by one {KEY} and /');
  for (const part of [head ?? '', rest]) {
    if (part.replace(PLACEHOLDER, '').match(/[{}]/)) problems.push('a { without its } (or the other way round)');
    for (const [, inner] of part.matchAll(PLACEHOLDER)) {
      const [what, ...filters] = inner.split('|');
      for (const f of filters) if (!(PLACEHOLDER_FILTERS as readonly string[]).includes(f)) problems.push(`{${inner}}: unknown filter "${f}" (${PLACEHOLDER_FILTERS.join(', ')})`);
      if (what === 'name' || ENV_NAME.test(what)) continue;
      if (!ATTRIBUTE_KEY.test(what)) problems.push(`{${inner}}: not name, a key or $VARIABLE`);
      else if (keys && !keys.has(what)) problems.push(`{${inner}}: "${what}" is not one of its keys`);
    }
  }
  return problems;
}

/** The paths the resource writes by its runner's `writes` entries whose conditions hold. */
export function writtenPaths(r: WrittenBy, description: RunnerDescription | undefined, host: HostLookups, holds: (when: WrittenPath['when']) => boolean): Written[] {
  const found: Written[] = [];
  for (const entry of description?.writes ?? []) {
    if (entry.when !== undefined && !holds(entry.when)) continue;
    found.push(...expand(entry.path, r, description, host));
  }
  return found;
}

function expand(template: string, r: WrittenBy, description: RunnerDescription | undefined, host: HostLookups): Written[] {
  const { head, rest } = splitHome(template);
  const tails = substitute(rest, r, description, host);
  if (template.startsWith('*/')) return tails.map((t) => ({ anywhere: t.slice(2) })).filter((w) => w.anywhere !== '' && !w.anywhere.includes('/'));
  let prefixes = [''];
  if (head === '') prefixes = [host.env.HOME || host.ownHome()];
  else if (head !== undefined) prefixes = substitute(head, r, description, host).flatMap((user) => host.homeOf(user) ?? []);
  return prefixes.flatMap((prefix) => tails.map((tail) => prefix + tail)).filter((p) => p.startsWith('/')).map((p) => ({ path: path.posix.normalize(p).replace(/(.)\/+$/, '$1') }));
}

/** `~{user}/.ssh` -> head `{user}`, rest `/.ssh`; `~/x` -> head ``; no ~: head undefined. */
function splitHome(template: string): { head?: string; rest: string } {
  if (!template.startsWith('~')) return { rest: template };
  const slash = template.indexOf('/');
  return slash < 0 ? { head: template.slice(1), rest: '' } : { head: template.slice(1, slash), rest: template.slice(slash) };
}

/** Every text the template gives: one per combination of its placeholders' values; none when one has no value. */
function substitute(template: string, r: WrittenBy, description: RunnerDescription | undefined, host: HostLookups): string[] {
  let texts = [''];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const literal = template.slice(at, match.index);
    const values = placeholderValues(match[1], r, description, host);
    texts = texts.flatMap((t) => values.map((v) => t + literal + v));
    at = match.index! + match[0].length;
  }
  return texts.map((t) => t + template.slice(at));
}

function placeholderValues(inner: string, r: WrittenBy, description: RunnerDescription | undefined, host: HostLookups): string[] {
  const [what, ...filters] = inner.split('|');
  let values: string[];
  if (what === 'name') values = [r.name];
  else if (what.startsWith('$')) {
    const value = host.env[what.slice(1)];
    values = value !== undefined && value.startsWith('/') ? [value] : [];
  } else {
    const value = r.attrs[what] ?? description?.keys?.[what]?.default;
    const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    values = list.filter((v) => ['string', 'number', 'boolean'].includes(typeof v)).map(String);
  }
  for (const f of filters) if (f === 'slash_to_dot') values = values.map((v) => v.replace(/\//g, '.'));
  return values;
}
