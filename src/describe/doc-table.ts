// A runner's description as documentation: the table of its keys (and what its rules say about
// each), the signals it accepts, the ordering it asks for and the files it writes. The docs of the built-in runners
// carry it between two markers; a test checks it is the one their descriptions give today, and
// `make docs` writes it.
import { describeCondition } from '../shared/arguments.js';
import type { KeySpec, NameSpec, RunnerDescription, ValueSpec } from '../shared/description.js';
import { encodeValues } from '../shared/protocol.js';
import { formatMode } from '../shared/values.js';

export const BEGIN = '<!-- keys: generated from the runner\'s description (make docs) -->';
export const END = '<!-- end of keys -->';

const code = (text: string) => `\`${text}\``;
const words = (list: readonly string[]) => list.map(code).join(', ');

/** The Markdown between BEGIN and END for a description. */
export function keysSection(description: RunnerDescription): string {
  const rows: string[] = ['| Key | Value | Default | Description |', '|---|---|---|---|'];
  if (description.name) rows.push(row('(name)', description.name, '', describeKey('', description.name, {})));
  for (const [key, spec] of Object.entries(description.keys ?? {})) rows.push(row(code(key), spec, defaultOf(key, spec, description), describeKey(key, spec, description)));
  const lines = [...rows, ''];
  if (description.signals) lines.push(`Signals: ${description.signals.length > 0 ? words(description.signals) : 'none'}.`, '');
  if (description.autorequire?.length) {
    lines.push('Ordering govern adds (unless the state file orders the two resources itself):', '');
    for (const a of description.autorequire) {
      if (a.same_key !== undefined) {
        lines.push(`- after the ${code(a.runner)} resource defined last before it with the same ${code(a.same_key)} (one at a time, even with --jobs)`);
        continue;
      }
      if (a.every) {
        lines.push(`- after every ${code(a.runner)} resource (unless the tree orders them the other way)`);
        continue;
      }
      const condition = a.reverse_when_other ? describeCondition(a.reverse_when_other) : undefined;
      const reverse = condition ? `, and before it when that one has ${condition}` : '';
      if (a.systemd_unit_of_name) {
        const reverseAll = condition ? `, and before them when they have ${condition}` : '';
        lines.push(`- after the ${code(a.runner)} resources that write its systemd unit's file or drop-ins (its template's too, for an instance)${reverseAll}`);
        continue;
      }
      const named = a.parent_of_name ? 'of its nearest managed parent directory' : a.name_or_parent ? 'of its own name, or else of its nearest managed parent directory' : `named by ${code(a.key ?? '')}`;
      lines.push(`- after the ${code(a.runner)} resource ${named}${reverse}`);
    }
    lines.push('');
  }
  if (description.writes?.length) {
    lines.push('Files it writes, which a directory\'s `purge = true` keeps ([runners.md](runners.md#files-a-runner-writes)):', '');
    for (const w of description.writes) lines.push(`- ${code(w.path)}${w.when ? ` when ${describeCondition(w.when)}` : ''}`);
    lines.push('');
  }
  return lines.join('\n');
}

function row(key: string, spec: ValueSpec, fallback: string, help: string): string {
  return `| ${key} | ${valueWords(spec)} | ${fallback} | ${help.replace(/\|/g, '\\|')} |`;
}

function valueWords(spec: ValueSpec): string {
  switch (spec.type) {
    case 'enum':
      return words(spec.values ?? []);
    case 'string':
      return spec.what ?? (spec.values ? words(spec.values) : 'string');
    case 'path':
      return spec.what ?? (spec.clean ? 'clean absolute path' : 'absolute path');
    case 'integer':
      return `integer${spec.min !== undefined ? ` from ${spec.min}` : ''}${spec.max !== undefined ? ` to ${spec.max}` : ''}`;
    case 'boolean':
      return words(['true', 'false']);
    case 'mode':
      return `octal mode (at most ${code(formatMode(spec.max ?? 0o7777))})`;
    case 'duration':
      return `duration (${words(['30s', '5m', '1h30m'])}, or seconds)`;
    case 'regex':
      return 'regular expression';
    case 'map':
      return 'map';
    case 'list':
      return `list of ${spec.items ? valueWords(spec.items) : 'strings'}`;
  }
}

function defaultOf(key: string, spec: KeySpec, description: RunnerDescription): string {
  if (spec.required) return 'required';
  const required = (description.rules ?? []).flatMap((r) => ('require' in r && r.require.includes(key) ? [`required for ${describeCondition(r.when)}`] : []));
  if (required.length > 0) return required.join('; ');
  return spec.default === undefined ? '' : code(encodeValues(spec.default).join(', '));
}

function describeKey(key: string, spec: KeySpec | NameSpec, description: RunnerDescription): string {
  const notes = [spec.help ?? ''];
  for (const rule of description.rules ?? []) {
    if ('requires' in rule && Object.hasOwn(rule.requires, key)) notes.push(`needs ${rule.requires[key].map(code).join(' and ')}`);
    if ('exclusive' in rule && rule.exclusive.includes(key)) notes.push(`not with ${rule.exclusive.filter((k) => k !== key).map(code).join(' or ')}`);
    if ('only_when' in rule && rule.keys.includes(key)) notes.push(`only for ${describeCondition(rule.only_when)}`);
    if ('values' in rule && Object.hasOwn(rule.values, key)) notes.push(`only ${words(rule.values[key])} with ${describeCondition(rule.when)}`);
    if ('relative_paths' in rule && Object.hasOwn(rule.relative_paths, key)) {
      notes.push(`with ${describeCondition(rule.when)}, a relative path must name an existing ${rule.relative_paths[key] === 'file' ? 'regular file' : 'directory'} (checked while planning)`);
    }
  }
  if ('sensitive' in spec && spec.sensitive) notes.push('secret: its value is never shown');
  return notes.filter((n) => n !== '').join('; ');
}

/** A document with its keys section replaced; undefined when it has no markers. */
export function withKeysSection(document: string, description: RunnerDescription): string | undefined {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (begin < 0 || end < begin) return undefined;
  return `${document.slice(0, begin + BEGIN.length)}\n${keysSection(description)}${document.slice(end)}`;
}
