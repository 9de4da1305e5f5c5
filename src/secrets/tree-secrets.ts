// What `govern secret` does with a tree's files: find the tree's recipients.hcl (at its root, the
// directory holding data/), set one value, tell who can read each value, and encrypt again the
// values whose names' members changed (docs/secrets.md).
import fs from 'node:fs';
import path from 'node:path';
import { parseDataText } from '../data/data-files.js';
import { DATA_DIR, HIERARCHY_FILE } from '../data/hierarchy.js';
import { findKey, keyLine } from '../data/lookup.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError, type Problem } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import { AgeError, decrypter, encrypt, ownAgeKeys } from './age.js';
import { setDataValue, stringLeaves } from './data-edit.js';
import { formatEncrypted, isEncrypted, parseEncrypted } from './format.js';
import { expandMembers, expandNames, readRecipients, RECIPIENTS_FILE, type Recipients } from './recipients.js';
import { describeChange, headerRecipients, recipientChange, verifiedMembers } from './value-recipients.js';

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

/** Each encrypted value of a data file (or the one at KEY): its key, its names, their members now. */
export function secretReaders(file: string, key?: string): { key: string; to: string[]; members: string[] }[] {
  const recipients = treeRecipients(file);
  const data = parseDataText(file, fs.readFileSync(file, 'utf8'));
  const leaves = key === undefined ? stringLeaves(data.values) : [[key, encryptedAt(file, key).value] as [string, string]];
  return leaves.filter(([, value]) => isEncrypted(value)).map(([k, value]) => {
    const { to } = parseEncrypted(value);
    return { key: k, to, members: expandMembers(recipients, to) };
  });
}

const ENCRYPTED_TEXT = /ENC\[age,[^\]\s"']*\]/g;

export interface RekeyResult {
  /** "FILE:LINE: KEY: encrypted again (adds ..., removes ...)", one per value written. */
  rekeyed: string[];
  /** Values whose recipients should change but that were left as they were, with the reason. */
  unread: Problem[];
  /** Encrypted values looked at. */
  values: number;
}

/** Every data file under dir (recursively). */
function dataFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(hcl|json|ya?ml)$/.test(e.name))
    .map((e) => path.join(e.path, e.name))
    .sort();
}

/**
 * Encrypts again each value of the tree's data files whose names' members of today are not the
 * keys its header holds (all of them with `all`). Only what was decrypted and encrypted again changes.
 */
export function rekeyTree(root: string, identity: string, all = false): RekeyResult {
  const recipients = rootRecipients(root);
  const result: RekeyResult = { rekeyed: [], unread: [], values: 0 };
  const open = decrypter(identity);
  const own = ownAgeKeys(identity);
  for (const file of dataFiles(path.join(root, DATA_DIR))) {
    const before = fs.readFileSync(file, 'utf8');
    const keyOf = new Map(stringLeaves(parseDataText(file, before).values).map(([k, v]) => [v, k]));
    let count = 0;
    const after = before.replace(ENCRYPTED_TEXT, (text, offset: number) => {
      result.values++;
      const line = before.slice(0, offset).split('\n').length;
      const key = keyOf.get(text) ?? 'a value in a list';
      try {
        const { to, ciphertext } = parseEncrypted(text);
        const wanted = expandNames(recipients, to);
        const header = headerRecipients(ciphertext);
        const change = recipientChange(header, wanted, recipients);
        if (change === undefined && !all) return text;
        const plaintext = open(ciphertext);
        // The label is not authenticated: a name none of whose members the value is verifiably
        // encrypted to today may have been added by hand, to give the value to someone new.
        const verified = verifiedMembers(header, recipients, own);
        const unverified = to.filter((name) => !expandMembers(recipients, [name]).some((member) => verified.has(member)));
        if (unverified.length > 0) throw new Error(`to=${to.join('+')}: the value is not encrypted today to any member of ${unverified.join(', ')}, as its header shows (a name written into the label by hand is not trusted): give it to them with govern secret set --to`);
        count++;
        result.rekeyed.push(`${file}:${line}: ${key}: encrypted again${change ? ` (${describeChange(change)})` : ''}`);
        return formatEncrypted({ to, ciphertext: encrypt(plaintext, wanted) });
      } catch (e) {
        if (!(e instanceof Error)) throw e;
        result.unread.push({ file, line, message: `${key}: left as it was: ${e.message}` });
        return text;
      }
    });
    if (count === 0) continue;
    parseDataText(file, after); // it still reads
    writeFileAtomic(file, after, fs.statSync(file).mode & 0o777);
  }
  return result;
}
