// What `govern secret` does with a tree's files: find recipients.hcl above a data file, set one
// value, tell who can read each value, and encrypt every value again to its names' current members
// (docs/secrets.md).
import fs from 'node:fs';
import path from 'node:path';
import { parseDataText } from '../data/data-files.js';
import { findKey } from '../data/lookup.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError } from '../shared/errors.js';
import { decrypt, decrypter, encrypt } from './age.js';
import { setDataValue, stringLeaves } from './data-edit.js';
import { formatEncrypted, isEncrypted, parseEncrypted } from './format.js';
import { expandMembers, expandNames, readRecipients, RECIPIENTS_FILE, type Recipients } from './recipients.js';

/** recipients.hcl of the tree that holds `from` (a data file or a directory): the nearest one above it. */
export function treeRecipients(from: string): Recipients {
  let dir = path.resolve(from);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) dir = path.dirname(dir);
  for (;;) {
    const file = path.join(dir, RECIPIENTS_FILE);
    if (fs.existsSync(file)) return readRecipients(file);
    const up = path.dirname(dir);
    if (up === dir) throw new UserError(`${from}: no ${RECIPIENTS_FILE} in its directory or any above it (docs/secrets.md)`);
    dir = up;
  }
}

export function setSecret(file: string, key: string, plaintext: string, names: string[]): void {
  const recipients = treeRecipients(file);
  const ciphertext = encrypt(plaintext, expandNames(recipients, names));
  setDataValue(file, key, formatEncrypted({ to: names, ciphertext }));
}

export function encryptedAt(file: string, key: string): string {
  const data = parseDataText(file, fs.readFileSync(file, 'utf8'));
  const found = findKey(data, key);
  if (found === undefined) throw new UserError({ file, message: `no key "${key}"` });
  if (!isEncrypted(found.value)) throw new UserError({ file, line: data.lines.get(found.top), message: `"${key}" is not an encrypted value (ENC[age,...])` });
  return found.value;
}

export function showSecret(file: string, key: string, identity: string): string {
  const { ciphertext } = parseEncrypted(encryptedAt(file, key));
  return decrypt(ciphertext, identity);
}

/** Each encrypted value of a data file (or the one at KEY): its key, its names, their members now. */
export function secretReaders(file: string, key?: string): { key: string; to: string[]; members: string[] }[] {
  const recipients = treeRecipients(file);
  const data = parseDataText(file, fs.readFileSync(file, 'utf8'));
  const leaves = key === undefined ? stringLeaves(data.values) : [[key, encryptedAt(file, key)] as [string, string]];
  return leaves.filter(([, value]) => isEncrypted(value)).map(([k, value]) => {
    const { to } = parseEncrypted(value);
    return { key: k, to, members: expandMembers(recipients, to) };
  });
}

const ENCRYPTED_TEXT = /ENC\[age,[^\]\s"']*\]/g;

export interface RekeyResult {
  rekeyed: number;
  /** Values the identity could not read, left as they were: "file: reason". */
  unread: string[];
}

/** Every data file under dir (recursively). */
function dataFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(hcl|json|ya?ml)$/.test(e.name))
    .map((e) => path.join(e.path, e.name))
    .sort();
}

/** Encrypts every value of the tree's data files again, to its names' current members. */
export function rekeyTree(root: string, identity: string): RekeyResult {
  const recipients = treeRecipients(root);
  const result: RekeyResult = { rekeyed: 0, unread: [] };
  const open = decrypter(identity);
  for (const file of dataFiles(path.join(path.dirname(recipients.file), 'data'))) {
    const before = fs.readFileSync(file, 'utf8');
    let count = 0;
    const after = before.replace(ENCRYPTED_TEXT, (text) => {
      try {
        const { to, ciphertext } = parseEncrypted(text);
        const plaintext = open(ciphertext);
        count++;
        return formatEncrypted({ to, ciphertext: encrypt(plaintext, expandNames(recipients, to)) });
      } catch (e) {
        result.unread.push(`${file}: ${(e as Error).message}`);
        return text;
      }
    });
    if (count === 0) continue;
    parseDataText(file, after); // it still reads
    writeFileAtomic(file, after, fs.statSync(file).mode & 0o777);
    result.rekeyed += count;
  }
  return result;
}
