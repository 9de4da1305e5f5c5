// What `govern diff` says about the encrypted values a host reads, which its plans cannot show
// (both sides are `<sensitive>`): a value whose ciphertext changed (a rotation), a value whose
// recipients changed (by its rule in recipients.hcl, or by its label where no rule matches it), a
// label that names someone its rule does not, and a host that reads a value it is no longer among
// the recipients of (its next run would fail). From the values as written and recipients.hcl at
// each revision (docs/secrets.md).
import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from '../data/hierarchy.js';
import type { TreeData } from '../data/lookup.js';
import type { DataOrigin } from '../data/source.js';
import { encryptedKeys } from '../secrets/data-edit.js';
import { parseEncrypted } from '../secrets/format.js';
import { expandMembers, RECIPIENTS_FILE, readRecipients, type Recipients } from '../secrets/recipients.js';
import { labelProblem, valueNames } from '../secrets/value-rules.js';
import { locationText } from './view.js';

/** One encrypted value a host's plan read. */
export interface SecretRead {
  key: string;
  /** FILE:LINE of the value, relative to the tree. */
  at: string;
  /** The ENC[...] strings of the value (several for a list or a map). */
  texts: string[];
  /** The names of each text's label. */
  to: string[];
  /** Whom the value is for: its rule's names (undefined: no recipients.hcl), else its label's. */
  names?: string[];
  /** What decided them: `recipients.hcl:LINE`, or `its label`. */
  by?: string;
  /** A label that names someone its rule does not. */
  labelProblems?: string[];
  /** Whether the host is among the members of those names (undefined: no recipients.hcl to tell). */
  member?: boolean;
  /** The hosts and people those names reach in recipients.hcl (undefined: no recipients.hcl). */
  members?: string[];
}

export interface SecretNote {
  note: string;
  hosts: string[];
}

/** The encrypted values a plan read, for the host named `host` in recipients.hcl. */
export function secretReads(data: TreeData | undefined, root: string, host: string): SecretRead[] {
  if (!data) return [];
  const reads = data.revealedValues();
  if (reads.length === 0) return [];
  const recipients = recipientsAt(root);
  return reads.map(([key, found]) => {
    const leaves = [...encryptedKeys(found.value, key)];
    const texts = leaves.map(([text]) => text);
    const to = [...new Set(texts.flatMap((text) => labelOf(text)))];
    const read: SecretRead = { key, at: found.origins.map((o) => locationText(o, root)).join(', '), texts, to };
    if (recipients) {
      const names = new Set<string>();
      const by = new Set<string>();
      const problems: string[] = [];
      for (const [text, leafKey] of leaves) {
        const label = labelOf(text);
        const decided = decide(recipients, root, found.origins, leafKey, label);
        decided.names.forEach((n) => names.add(n));
        by.add(decided.rule ? `${RECIPIENTS_FILE}:${decided.rule.rule.line}` : 'its label');
        const problem = labelProblem({ file: RECIPIENTS_FILE }, decided, label);
        if (problem) problems.push(leafKey === key ? problem : `${leafKey}: ${problem}`);
      }
      read.names = [...names];
      read.by = [...by].join(', ');
      if (problems.length > 0) read.labelProblems = problems;
      read.members = expandMembers(recipients, read.names).sort();
      read.member = read.members.includes(host);
    }
    return read;
  });
}

/** A value's names by the first of its data files a rule matches, else by its label. */
function decide(recipients: Recipients, root: string, origins: readonly DataOrigin[], key: string, label: string[]): ReturnType<typeof valueNames> {
  for (const origin of origins) {
    const relative = path.relative(path.join(root, DATA_DIR), path.resolve(origin.file)).split(path.sep).join('/');
    const decided = valueNames(recipients, relative, key, label);
    if (decided.rule) return decided;
  }
  return { names: label };
}

function recipientsAt(root: string): Recipients | undefined {
  const file = path.join(root, RECIPIENTS_FILE);
  try {
    return fs.existsSync(file) ? readRecipients(file) : undefined;
  } catch {
    return undefined; // a bad recipients.hcl is not this preview's to report: planning reads none
  }
}

function labelOf(text: string): string[] {
  try {
    return parseEncrypted(text).to;
  } catch {
    return [];
  }
}

/** The notes for one host, from what it read at each revision. */
export function secretNotes(host: string, before: readonly SecretRead[], after: readonly SecretRead[]): string[] {
  const old = new Map(before.map((r) => [r.key, r]));
  const notes: string[] = [];
  for (const now of after) {
    const was = old.get(now.key);
    if (was && ciphertexts(was) !== ciphertexts(now)) notes.push(`encrypted value changed (${now.at}, ${now.key})`);
    const [wasFor, nowFor] = [was?.names ?? was?.to, now.names ?? now.to];
    if (was && wasFor!.join('+') !== nowFor.join('+')) {
      const plus = nowFor.filter((n) => !wasFor!.includes(n)).map((n) => `+${n}`);
      const minus = wasFor!.filter((n) => !nowFor.includes(n)).map((n) => `-${n}`);
      const changed = [...plus, ...minus].join(', ') || 'reordered';
      notes.push(`recipients of ${now.key} changed (${now.at}): ${changed} (${wasFor!.join('+')} -> ${nowFor.join('+')}, by ${now.by ?? 'its label'})`);
    }
    if ((was?.labelProblems ?? []).length === 0) for (const problem of now.labelProblems ?? []) notes.push(`label of ${now.key} disagrees with its rule (${now.at}): ${problem}`);
    if (was?.members && now.members) {
      const added = now.members.filter((m) => !was.members!.includes(m));
      const removed = was.members.filter((m) => !now.members!.includes(m));
      if (added.length + removed.length > 0) notes.push(`readers of ${now.key} changed (${now.at}): ${[...(added.length > 0 ? [`adds ${added.join(', ')}`] : []), ...(removed.length > 0 ? [`removes ${removed.join(', ')}`] : [])].join('; ')}`);
    }
    // What was so at both revisions is no change of this diff (the run at the first one fails already).
    if (now.member === false && was?.member !== false) notes.push(`${host} reads ${now.key} but is ${was?.member === true ? 'no longer' : 'not'} among its recipients (${now.at}): its run will fail`);
  }
  return notes;
}

/** The age files of a value, without their labels: a label edited alone is no rotation. */
function ciphertexts(read: SecretRead): string {
  return read.texts.map((text) => text.slice(text.lastIndexOf(',') + 1)).join('\n');
}

/** Identical notes of several hosts once, with their hosts. */
export function groupNotes(byHost: Map<string, string[]>): SecretNote[] {
  const groups = new Map<string, string[]>();
  for (const host of [...byHost.keys()].sort()) for (const note of byHost.get(host)!) groups.set(note, [...(groups.get(note) ?? []), host]);
  return [...groups].map(([note, hosts]) => ({ note, hosts }));
}

export function formatNotes(notes: readonly SecretNote[]): string {
  return notes.map((n) => `${n.note} on ${n.hosts.length} host${n.hosts.length === 1 ? '' : 's'}: ${n.hosts.join(', ')}\n`).join('');
}
