// `govern secret rekey`: encrypt again each value of data/ whose readers of today (by recipients.hcl)
// are not the keys its age header holds. Who a value is for comes from the `values` rule matching
// it; its `to=` label, which anyone who can commit may edit, is only a copy that is checked: it
// never adds a reader. A value no rule matches keeps its label's names, and then rekey adds no one
// the header does not show already (docs/secrets.md, "Who a value is for").
import fs from 'node:fs';
import path from 'node:path';
import { parseDataText } from '../data/data-files.js';
import { DATA_DIR } from '../data/hierarchy.js';
import { writeFileAtomic } from '../shared/atomic-file.js';
import type { Problem } from '../shared/errors.js';
import { decrypter, encrypt, ownAgeKeys } from './age.js';
import { formatEncrypted, parseEncrypted } from './format.js';
import { expandMembers, expandNames, type Recipients } from './recipients.js';
import { encryptedKeys } from './data-edit.js';
import { labelProblem, valueNames } from './value-rules.js';
import { describeChange, headerRecipients, recipientChange, verifiedMembers, type RecipientChange } from './value-recipients.js';

const ENCRYPTED_TEXT = /ENC\[age,[^\]\s"']*\]/g;

export interface RekeyResult {
  /** "FILE:LINE: KEY: encrypted again (adds ..., removes ...)", one per value written. */
  rekeyed: string[];
  /** Values whose recipients should change but that were left as they were, with the reason. */
  unread: Problem[];
  /** Labels that name someone their rule does not (corrected, never followed). */
  warnings: Problem[];
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

/** Why rekey may not encrypt to `to` by the label alone (no rule matches the value), or undefined. */
function labelOnlyRefusal(to: string[], change: RecipientChange | undefined, verified: Set<string>, recipients: Recipients): string | undefined {
  const label = `to=${to.join('+')}`;
  const unverified = to.filter((name) => !expandMembers(recipients, [name]).some((member) => verified.has(member)));
  if (unverified.length > 0) return `${label}: the value is not encrypted today to any member of ${unverified.join(', ')}, as its header shows (a name written into the label by hand is not trusted): give it to them with govern secret set --to`;
  const moreAge = change?.ageKeys && change.ageKeys.wanted > change.ageKeys.now;
  if ((change?.added.length ?? 0) === 0 && !moreAge) return undefined;
  const who = [...(change?.added ?? []), ...(moreAge ? [`${change!.ageKeys!.wanted - change!.ageKeys!.now} more age key(s)`] : [])].join(', ');
  return `${label} would add ${who}, and no values rule of recipients.hcl matches the value: rekey adds no reader on the word of a label, which nothing authenticates; write a rule for it in recipients.hcl (values = { ... }) or give it with govern secret set --to`;
}

/**
 * Encrypts again each value of the tree's data files whose readers of today are not the keys its
 * header holds (all of them with `all`). Only what was decrypted and encrypted again changes, and
 * a label that disagrees with its rule is set to the rule's names.
 */
export function rekeyTree(recipients: Recipients, root: string, identity: string, all = false): RekeyResult {
  const result: RekeyResult = { rekeyed: [], unread: [], warnings: [], values: 0 };
  const open = decrypter(identity);
  const own = ownAgeKeys(identity);
  const dataDir = path.join(root, DATA_DIR);
  for (const file of dataFiles(dataDir)) {
    const before = fs.readFileSync(file, 'utf8');
    const relative = path.relative(dataDir, file).split(path.sep).join('/');
    const keyOf = encryptedKeys(parseDataText(file, before).values);
    let count = 0;
    const after = before.replace(ENCRYPTED_TEXT, (text, offset: number) => {
      result.values++;
      const line = before.slice(0, offset).split('\n').length;
      const key = keyOf.get(text) ?? 'a value';
      try {
        const { to, ciphertext } = parseEncrypted(text);
        const decided = valueNames(recipients, relative, key, to);
        const mismatch = labelProblem(recipients, decided, to);
        if (mismatch) result.warnings.push({ file, line, message: `${key}: ${mismatch}` });
        const wanted = expandNames(recipients, decided.names);
        const header = headerRecipients(ciphertext);
        const change = recipientChange(header, wanted, recipients);
        const relabel = decided.names.join('+') !== to.join('+');
        const labelNote = relabel ? `label to=${to.join('+')} -> to=${decided.names.join('+')}` : '';
        if (change === undefined && !all) {
          if (!relabel) return text;
          count++;
          result.rekeyed.push(`${file}:${line}: ${key}: ${labelNote} (the readers were already these)`);
          return formatEncrypted({ to: decided.names, ciphertext });
        }
        const plaintext = open(ciphertext);
        if (!decided.rule) {
          const refusal = labelOnlyRefusal(to, change, verifiedMembers(header, recipients, own), recipients);
          if (refusal) throw new Error(refusal);
        }
        count++;
        const said = [change ? describeChange(change) : '', labelNote].filter((s) => s !== '').join('; ');
        result.rekeyed.push(`${file}:${line}: ${key}: encrypted again${said ? ` (${said})` : ''}`);
        return formatEncrypted({ to: decided.names, ciphertext: encrypt(plaintext, wanted) });
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
