// recipients.hcl at a tree's root: hosts by their SSH host key, people by an age or SSH key, groups
// of them, and the rules that say whom each value of data/ is for (docs/secrets.md). Every problem
// of the file is reported at once, at its line.
import path from 'node:path';
import { parseHcl } from '../hcl/parse.js';
import { UserError, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { readSourceFile } from '../shared/source-file.js';
import { didYouMean } from '../shared/suggest.js';
import { RECIPIENT_NAME } from './format.js';
import { readValueRules, type ValueRule } from './value-rules.js';

export const RECIPIENTS_FILE = 'recipients.hcl';
const SECTIONS = ['hosts', 'people', 'groups', 'values'] as const;

export interface Recipients {
  file: string;
  /** Hosts and people: name -> public key. */
  keys: Map<string, { key: string; kind: 'host' | 'person' }>;
  groups: Map<string, string[]>;
  /** The `values` rules, in the order written (none: each value is for the names of its label). */
  rules: ValueRule[];
}

/** "age1" and 58 bech32 characters: an X25519 recipient as age-keygen prints it. */
const AGE_KEY = /^age1[023456789acdefghjklmnpqrstuvwxyz]{58}$/;

/** Why a public key is not one age takes (an age X25519 key or an SSH ed25519 key), or undefined. */
export function keyProblem(key: string): string | undefined {
  if (AGE_KEY.test(key)) return undefined;
  const [type, blob] = key.split(/\s+/);
  if (type === 'ssh-ed25519' && blob !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(blob)) {
    const bytes = Buffer.from(blob, 'base64');
    // The SSH wire form: string "ssh-ed25519", then a string of the 32-byte key.
    const typeLength = bytes.length >= 4 ? bytes.readUInt32BE(0) : -1;
    if (typeLength === 11 && bytes.subarray(4, 15).toString('latin1') === 'ssh-ed25519' && bytes.length === 51 && bytes.readUInt32BE(15) === 32) return undefined;
    return 'is not a valid ssh-ed25519 public key (the base64 part does not decode to one)';
  }
  if (type?.startsWith('ssh-') || type?.startsWith('ecdsa-')) return `is an SSH key of type ${type}: age takes ssh-ed25519 (and ssh-rsa, which govern does not use) keys`;
  return 'is neither an age key ("age1...", from age-keygen) nor an SSH ed25519 key ("ssh-ed25519 AAAA...")';
}

export function recipientsFile(root: string): string {
  return path.join(root, RECIPIENTS_FILE);
}

export function readRecipients(file: string): Recipients {
  // The file of a tree: read by the rules of every file of it, and only inside its directory.
  const text = readSourceFile(file, path.dirname(file));
  const lines = text.split('\n');
  const problems: Problem[] = [];
  const recipients: Recipients = { file, keys: new Map(), groups: new Map(), rules: [] };
  const groupItems: [string, AttrValue, number][] = [];
  let rulesItem: { value: AttrValue; at: number } | undefined;
  /** Hosts and people written, even with a bad key: a group naming one is not reported again. */
  const declared = new Set<string>();
  for (const item of parseHcl(file, text).items) {
    const at = item.at.line;
    if (item.kind === 'block' || !(SECTIONS as readonly string[]).includes(item.name)) {
      const name = item.kind === 'block' ? item.type : item.name;
      problems.push({ file, line: at, message: `unknown ${item.kind} "${name}"${didYouMean(name, SECTIONS)}: ${RECIPIENTS_FILE} holds hosts = { ... }, people = { ... }, groups = { ... } and values = { ... }` });
      continue;
    }
    if (item.value === null || typeof item.value !== 'object' || Array.isArray(item.value)) {
      problems.push({ file, line: at, message: `${item.name} must be a map of names, such as ${item.name} = { web1 = ... }` });
      continue;
    }
    if (item.name === 'values') {
      rulesItem = { value: item.value, at };
      continue;
    }
    for (const [name, value] of Object.entries(item.value)) {
      const line = entryLine(lines, at, name);
      if (!RECIPIENT_NAME.test(name)) problems.push({ file, line, message: `"${name}" is not a name (letters, digits, _, - and .)` });
      else if (item.name === 'groups') groupItems.push([name, value, line]);
      else if (declared.has(name)) problems.push({ file, line, message: `"${name}" is both a host and a person: give each one name` });
      else if (!declared.add(name) || typeof value !== 'string') problems.push({ file, line, message: `${item.name}.${name} must be a public key string` });
      else {
        const why = keyProblem(value.trim());
        if (why) problems.push({ file, line, message: `${item.name}.${name}: the key ${why}` });
        else recipients.keys.set(name, { key: value.trim(), kind: item.name === 'hosts' ? 'host' : 'person' });
      }
    }
  }
  for (const [name, members, line] of groupItems) {
    if (declared.has(name)) problems.push({ file, line, message: `group "${name}" has the name of a host or person` });
    else if (!Array.isArray(members) || !members.every((m) => typeof m === 'string')) problems.push({ file, line, message: `groups.${name} must be a list of host and person names` });
    else {
      const unknown = (members as string[]).filter((m) => !declared.has(m));
      for (const m of unknown) problems.push({ file, line, message: `groups.${name}: no host or person "${m}"${didYouMean(m, declared)}` });
      recipients.groups.set(name, members as string[]);
    }
  }
  if (rulesItem) {
    const known = new Set([...declared, ...recipients.groups.keys()]);
    recipients.rules = readValueRules(file, rulesItem.value, (name) => entryLine(lines, rulesItem!.at, name), known, problems);
  }
  if (problems.length > 0) throw new UserError(problems);
  return recipients;
}

/** The line of `name = ...` in a map whose attribute starts at line `from`; else `from`. */
function entryLine(lines: string[], from: number, name: string): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*(${escaped}|"${escaped}")\\s*=`);
  for (let i = from - 1; i < lines.length; i++) if (pattern.test(lines[i])) return i + 1;
  return from;
}

/** Names (hosts, people or groups) -> the public keys, each once; an unknown name is a UserError. */
export function expandNames(recipients: Recipients, names: readonly string[]): string[] {
  const keys = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const members = recipients.groups.get(name) ?? (recipients.keys.has(name) ? [name] : undefined);
    if (members === undefined) unknown.push(name);
    else for (const member of members) keys.add(recipients.keys.get(member)!.key);
  }
  if (unknown.length > 0) {
    const all = [...recipients.keys.keys(), ...recipients.groups.keys()];
    throw new UserError(unknown.map((name) => ({ file: recipients.file, message: `no host, person or group "${name}"${didYouMean(name, all)}` })));
  }
  return [...keys];
}

/** The hosts and people a list of names reaches, groups expanded. */
export function expandMembers(recipients: Recipients, names: readonly string[]): string[] {
  return [...new Set(names.flatMap((name) => recipients.groups.get(name) ?? (recipients.keys.has(name) ? [name] : [])))];
}
