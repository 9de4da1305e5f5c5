// `govern plan --explain` of a file's contents rendered from a template: the template's own lines
// that compute something (those holding `{{`), and each variable of `vars` the template reads with
// its value. The facts and data the template reads are told by explain.ts with the key's others.
import fs from 'node:fs';
import { SENSITIVE } from '../shared/sensitive.js';
import type { AttrValue } from '../shared/protocol.js';
import { namesRead } from './explain-composed.js';

export interface TemplateOrigin {
  name: string;
  /** The line naming it. */
  at: string;
  /** The file it was found at, relative to the tree's root when it is in the tree. */
  file?: string;
  lines?: { line: number; text: string }[];
  vars?: { name: string; value: unknown }[];
}

/** A template's text, or '' when it cannot be read now (it was read while planning). */
export function templateSource(file: string | undefined): string {
  if (file === undefined) return '';
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The lines of a template that hold an expression, and the variables of `vars` it reads. */
export function templateReads(source: string, vars: { [key: string]: AttrValue }, hidden: boolean): Pick<TemplateOrigin, 'lines' | 'vars'> {
  const lines = source
    .split('\n')
    .map((text, i) => ({ line: i + 1, text }))
    .filter((l) => l.text.includes('{{'));
  const names = namesRead(source);
  const read = Object.keys(vars)
    .filter((name) => names.has(name))
    .sort()
    .map((name) => ({ name, value: hidden ? SENSITIVE : vars[name] }));
  return { ...(lines.length > 0 ? { lines } : {}), ...(read.length > 0 ? { vars: read } : {}) };
}

export function templateLines(t: TemplateOrigin, varsAt: string | undefined): string[] {
  const lines = [`    rendered from template ${t.name}${t.file !== undefined && t.file !== t.name ? ` (${t.file})` : ''}, named at ${t.at}`];
  for (const l of t.lines ?? []) lines.push(`      ${String(l.line).padStart(3)} | ${l.text}`);
  for (const v of t.vars ?? []) lines.push(`    var ${v.name} = ${JSON.stringify(v.value)}, given by vars${varsAt !== undefined ? ` at ${varsAt}` : ''}`);
  return lines;
}
