// What `govern secret` does with a tree's files: find the tree's recipients.hcl (at its root, the
// directory holding data/), decide whom a value is for (its rule, else its label), set one value and
// tell who can read each value (docs/secrets.md); rekey is rekey.ts.
import fs from 'node:fs';
import path from 'node:path';
import { parseDataText } from '../data/data-files.js';
import { DATA_DIR, HIERARCHY_FILE } from '../data/hierarchy.js';
import { findKey, keyLine } from '../data/lookup.js';
import { UserError, type Problem } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import { AgeError, decrypter, encrypt } from './age.js';
import { setDataValue, stringLeaves } from './data-edit.js';
import { formatEncrypted, isEncrypted, parseEncrypted } from './format.js';
import { expandMembers, expandNames, readRecipients, RECIPIENTS_FILE, type Recipients } from './recipients.js';
import { rekeyTree as rekeyWith, type RekeyResult } from './rekey.js';
import { labelProblem, matchRule, sameNames, valueNames } from './value-rules.js';

/** The root of the tree a data file belongs to: the directory holding the data/ it is under. */
export function dataFileRoot(file: string): string {
  for (let dir = path.dirname(path.resolve(file)); ; ) {
    const up = path.dirname(dir);
    if (path.basename(dir) === DATA_DIR && (fs.existsSync(path.join(up, RECIPIENTS_FILE)) || fs.existsSync(path.join(up, HIERARCHY_FILE)))) return up;
    if (up === dir) throw new UserError(`${file}: not a data file of a tree (a file under the data/ directory beside the tree's ${RECIPIENTS_FILE}; docs/secrets.md)`);
    dir = up;
  }
}

/** recipients.hcl at the tree's root, the one place every command reads it from. */
export function rootRecipients(root: string): Recipients {
  const file = path.join(root, RECIPIENTS_FILE);
  if (fs.existsSync(file)) return readRecipients(file);
  const hint = path.basename(path.resolve(root)) === DATA_DIR && fs.existsSync(path.join(root, '..', RECIPIENTS_FILE))
    ? `: give the tree's root (${path.join(root, '..')}), not its data/ directory`
    : `: it is at the tree's root, beside hierarchy.hcl and data/ (docs/secrets.md)`;
  throw new UserError(`${root}: no ${RECIPIENTS_FILE} here${hint}`);
}

export function treeRecipients(dataFile: string): Recipients {
  return rootRecipients(dataFileRoot(dataFile));
}

/** The data file's path relative to its tree's data/, with "/", as the rules of recipients.hcl match it. */
function dataRelative(file: string): string {
  return path.relative(path.join(dataFileRoot(file), DATA_DIR), path.resolve(file)).split(path.sep).join('/');
}

/**
 * The names a value set at KEY is for: its rule's (`to`, when given, must name the same), else `to`,
 * which is then needed. Checked before the value is asked for.
 */
export function namesToSet(file: string, key: string, to: readonly string[] | undefined): string[] {
  const recipients = treeRecipients(file);
  const rule = matchRule(recipients.rules, dataRelative(file), key);
  if (rule && to && to.length > 0 && !sameNames(to, rule.names)) {
    throw new UserError({ file: recipients.file, line: rule.rule.line, message: `"${rule.rule.pattern}" gives ${key} of ${file} to ${rule.names.join(', ')}, not ${to.join(', ')}: the rule decides whom a value is for; change the rule (or leave out --to)` });
  }
  if (rule) return rule.names;
  if (!to || to.length === 0) throw new UserError(`secret set: no values rule of ${recipients.file} matches ${key} of ${file}: --to NAME[,NAME...] names who can read the value (hosts, people, groups of recipients.hcl), or write a rule for it (docs/secrets.md)`);
  return [...to];
}

export function setSecret(file: string, key: string, plaintext: string, names: string[]): void {
  const recipients = treeRecipients(file);
  const ciphertext = encrypt(plaintext, expandNames(recipients, names));
  setDataValue(file, key, formatEncrypted({ to: names, ciphertext }));
}

export function encryptedAt(file: string, key: string): { value: string; line?: number } {
  const data = parseDataText(file, fs.readFileSync(file, 'utf8'));
  const found = findKey(data, key);
  if (found === undefined) {
    const encrypted = stringLeaves(data.values).filter(([, v]) => isEncrypted(v)).map(([k]) => k);
    throw new UserError({ file, message: `no key "${key}"${didYouMean(key, encrypted)}` });
  }
  const line = keyLine(data, key, found.top);
  if (!isEncrypted(found.value)) throw new UserError({ file, line, message: `"${key}" is not an encrypted value (ENC[age,...])` });
  return { value: found.value, ...(line !== undefined ? { line } : {}) };
}

export function showSecret(file: string, key: string, identity: string): string {
  const { value, line } = encryptedAt(file, key);
  try {
    const { to, ciphertext } = parseEncrypted(value);
    try {
      return decrypter(identity)(ciphertext);
    } catch (e) {
      if (!(e instanceof AgeError)) throw e;
      throw new Error(`cannot decrypt with the identity ${identity} (the value is for ${to.join('+') || 'no one named'}): ${e.message}`);
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError({ file, line, message: `"${key}": ${(e as Error).message}` });
  }
}

/** Each encrypted value of a data file (or the one at KEY): its key, the names it is for, their members now. */
export function secretReaders(file: string, key?: string): { key: string; to: string[]; members: string[]; problem?: Problem }[] {
  const recipients = treeRecipients(file);
  const relative = dataRelative(file);
  const data = parseDataText(file, fs.readFileSync(file, 'utf8'));
  const leaves = key === undefined ? stringLeaves(data.values) : [[key, encryptedAt(file, key).value] as [string, string]];
  return leaves.filter(([, value]) => isEncrypted(value)).map(([k, value]) => {
    const { to } = parseEncrypted(value);
    const decided = valueNames(recipients, relative, k, to);
    const mismatch = labelProblem(recipients, decided, to);
    const line = keyLine(data, k, findKey(data, k)?.top ?? k);
    return { key: k, to: decided.names, members: expandMembers(recipients, decided.names), ...(mismatch ? { problem: { file, ...(line !== undefined ? { line } : {}), message: `${k}: ${mismatch}` } } : {}) };
  });
}

export type { RekeyResult };

/** rekey.ts for the tree at root, with recipients.hcl read where every command reads it. */
export function rekeyTree(root: string, identity: string, all = false): RekeyResult {
  return rekeyWith(rootRecipients(root), root, identity, all);
}
