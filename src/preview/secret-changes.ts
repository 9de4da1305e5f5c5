// What `govern diff` says about the encrypted values a host reads, which its plans cannot show
// (both sides are `<sensitive>`): a value whose ciphertext changed (a rotation), a value whose
// names changed, and a host that reads a value it is no longer among the recipients of (its next
// run would fail). From the values as written and recipients.hcl at each revision (docs/secrets.md).
import fs from 'node:fs';
import path from 'node:path';
import type { TreeData } from '../data/lookup.js';
import { isEncrypted, parseEncrypted } from '../secrets/format.js';
import { expandMembers, RECIPIENTS_FILE, readRecipients, type Recipients } from '../secrets/recipients.js';
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
    const texts = encryptedTexts(found.value);
    const to = [...new Set(texts.flatMap((text) => labelOf(text)))];
    const read: SecretRead = { key, at: found.origins.map((o) => locationText(o, root)).join(', '), texts, to };
    if (recipients) {
      read.members = expandMembers(recipients, to).sort();
      read.member = read.members.includes(host);
    }
    return read;
  });
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

function encryptedTexts(value: unknown): string[] {
  if (isEncrypted(value as string)) return [value as string];
  if (Array.isArray(value)) return value.flatMap(encryptedTexts);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(encryptedTexts);
  return [];
}

/** The notes for one host, from what it read at each revision. */
export function secretNotes(host: string, before: readonly SecretRead[], after: readonly SecretRead[]): string[] {
  const old = new Map(before.map((r) => [r.key, r]));
  const notes: string[] = [];
  for (const now of after) {
    const was = old.get(now.key);
    if (was && ciphertexts(was) !== ciphertexts(now)) notes.push(`encrypted value changed (${now.at}, ${now.key})`);
    if (was && was.to.join('+') !== now.to.join('+')) notes.push(`recipients of ${now.key} changed (${now.at}): ${was.to.join('+')} -> ${now.to.join('+')}`);
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
