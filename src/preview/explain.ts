// `govern plan --explain RREF[/KEY]`: where each value of a resource comes from, as far as the
// planned tree records it: the state file and line that write the key, the template a `contents`
// is rendered from (the line naming it, its lines and the variables it reads: explain-template.ts),
// the facts the key's own lines and template read (`fact`,
// `hostfact`), with their values and where those came from, the data keys and module parameters
// they read (explain-composed.ts). A value built elsewhere (a variable set on another line) names
// only the line that writes the key.
import fs from 'node:fs';
import type { TreeData } from '../data/lookup.js';
import { UserError } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import { hiddenKey, isSensitiveFact, SENSITIVE } from '../shared/sensitive.js';
import { keyLocation, TEMPLATE_KEY, VARS_KEY, type Resource } from '../state/resource.js';
import { templateLines, templateReads, templateSource, type TemplateOrigin } from './explain-template.js';
import { dataLine, dataUses, moduleLine, paramLine, paramUses, pathsFrom, type DataUse, type ModuleOrigin, type ParamUse } from './explain-composed.js';

export interface FactOrigin {
  name: string;
  host?: string;
  value?: string;
  /** Where the value came from: a snapshot file, or this host's facts directories. */
  from: string;
}

export interface KeyOrigin {
  key: string;
  value: unknown;
  /** `file:line` of the state file writing the key. */
  at: string;
  template?: TemplateOrigin;
  /** `file:line` of the `vars` a template's contents are given. */
  varsAt?: string;
  facts: FactOrigin[];
  /** The data keys the key's lines read; absent when none. */
  data?: DataUse[];
  /** The module instance's parameters the key's lines read; absent when none. */
  params?: ParamUse[];
}

export interface FactLookup {
  value(name: string, host?: string): string | undefined;
  from(host?: string): string;
}

const FACT_CALL = /\b(hostfact\s+"((?:[^"\\]|\\.)*)"\s+|fact\s+)"((?:[^"\\]|\\.)*)"/g;

/** The lines of the key as written: from its line to the line before the resource's next key. */
function keyText(r: Resource, key: string, sources: Map<string, string[]>): string {
  const at = keyLocation(r, key);
  if (at.line === undefined) return '';
  let lines = sources.get(at.file);
  if (!lines) {
    try {
      lines = fs.readFileSync(at.file, 'utf8').split('\n');
    } catch {
      lines = [];
    }
    sources.set(at.file, lines);
  }
  const next = Object.values(r.keyAt ?? {})
    .filter((l) => l.file === at.file && l.line !== undefined && l.line > at.line!)
    .map((l) => l.line!);
  const end = next.length > 0 ? Math.min(...next) - 1 : Math.min(lines.length, at.line + 50);
  const text: string[] = [];
  for (let i = at.line - 1; i < end && i < lines.length; i++) {
    if (i > at.line - 1 && /^\s*}\s*$/.test(lines[i])) break;
    text.push(lines[i]);
  }
  return text.join('\n');
}

export function explainResource(r: Resource, key: string | undefined, root: string, facts: FactLookup, data?: TreeData): KeyOrigin[] {
  const keys = Object.keys(r.attrs).sort();
  if (key !== undefined && !keys.includes(key)) throw new UserError(`${r.ref} has no key "${key}"${didYouMean(key, new Set(keys))}`);
  const sources = new Map<string, string[]>();
  const at = pathsFrom(root);
  return (key !== undefined ? [key] : keys).map((k) => {
    const fromTemplate = k === 'contents' && r.template !== undefined;
    const origin: KeyOrigin = {
      key: k,
      value: hiddenKey(r, k) ? SENSITIVE : r.attrs[k],
      at: at(keyLocation(r, fromTemplate ? TEMPLATE_KEY : k)),
      facts: [],
    };
    // A template's contents read what `vars` gives it and what the template itself reads, as well as
    // what names the template.
    const template = fromTemplate ? templateSource(r.template!.file) : '';
    if (fromTemplate) {
      const file = r.template!.file !== undefined ? at({ file: r.template!.file }) : undefined;
      origin.template = { name: r.template!.name, at: at(keyLocation(r, TEMPLATE_KEY)), ...(file !== undefined ? { file } : {}), ...templateReads(template, r.template!.vars, hiddenKey(r, k)) };
      if (r.keyAt?.[VARS_KEY]) origin.varsAt = at(keyLocation(r, VARS_KEY));
    }
    const own = fromTemplate && r.keyAt?.[VARS_KEY] ? `${keyText(r, TEMPLATE_KEY, sources)}\n${keyText(r, VARS_KEY, sources)}` : keyText(r, fromTemplate ? TEMPLATE_KEY : k, sources);
    const text = template === '' ? own : `${own}\n${template}`;
    const used = dataUses(text, data, hiddenKey(r, k), at);
    if (used.length > 0) origin.data = used;
    const params = paramUses(text, r.module, hiddenKey(r, k), at);
    if (params.length > 0) origin.params = params;
    const seen = new Set<string>();
    for (const m of text.matchAll(FACT_CALL)) {
      const host = m[2];
      const name = m[3];
      if (seen.has(`${host}\0${name}`)) continue;
      seen.add(`${host}\0${name}`);
      const value = facts.value(name, host);
      const fact: FactOrigin = { name, from: facts.from(host) };
      if (host !== undefined) fact.host = host;
      if (value !== undefined) fact.value = isSensitiveFact(name) || hiddenKey(r, k) ? SENSITIVE : value;
      origin.facts.push(fact);
    }
    return origin;
  });
}

export function formatExplain(ref: string, at: string, origins: KeyOrigin[], module?: ModuleOrigin): string {
  const lines = [`${ref} (${at})`];
  if (module) lines.push(moduleLine(module));
  for (const o of origins) {
    lines.push(`  ${o.key} = ${JSON.stringify(o.value)}`);
    lines.push(...(o.template ? templateLines(o.template, o.varsAt) : [`    written at ${o.at}`]));
    for (const p of o.params ?? []) lines.push(paramLine(p));
    for (const d of o.data ?? []) lines.push(dataLine(d));
    for (const f of o.facts) lines.push(`    fact ${f.host !== undefined ? `${f.host}:` : ''}${f.name} = ${f.value !== undefined ? JSON.stringify(f.value) : '(unknown)'}, from ${f.from}`);
  }
  return lines.join('\n') + '\n';
}
