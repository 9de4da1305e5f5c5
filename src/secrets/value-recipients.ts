// Who an encrypted value is encrypted to, as far as its age header tells: an ssh-ed25519 stanza
// names its key by a tag (the first 4 bytes of SHA-256 of the key), an X25519 stanza names no one,
// so those are only counted. rekey encrypts a value again only when its names' members of today
// differ from this, and `govern diff` says when a host is no longer among them (docs/secrets.md).
import { createHash } from 'node:crypto';
import { parseHeader } from './age-format.js';
import { bech32Decode } from './age-x25519.js';
import type { Recipients } from './recipients.js';

export interface HeaderRecipients {
  /** The tags of its ssh-ed25519 stanzas, base64 as written. */
  sshTags: string[];
  /** How many X25519 stanzas it has. */
  x25519: number;
  /** Stanzas of any other type (an ssh-rsa key, a plugin's). */
  other: number;
}

export function headerRecipients(ciphertext: Buffer): HeaderRecipients {
  const result: HeaderRecipients = { sshTags: [], x25519: 0, other: 0 };
  for (const stanza of parseHeader(ciphertext).stanzas) {
    if (stanza.args[0] === 'ssh-ed25519' && stanza.args.length === 3) result.sshTags.push(stanza.args[1]);
    else if (stanza.args[0] === 'X25519') result.x25519++;
    else result.other++;
  }
  return result;
}

/** The stanza tag of an "ssh-ed25519 AAAA..." public key; undefined for an age key. */
export function sshTag(key: string): string | undefined {
  const [type, blob] = key.split(/\s+/);
  if (type !== 'ssh-ed25519' || blob === undefined) return undefined;
  return createHash('sha256').update(Buffer.from(blob, 'base64')).digest().subarray(0, 4).toString('base64').replace(/=+$/, '');
}

export interface RecipientChange {
  /** Hosts and people of recipients.hcl the new encryption adds (SSH keys: known by their tag). */
  added: string[];
  /** Hosts and people (or unnamed keys) the value is encrypted to today and would not be. */
  removed: string[];
  /** The count of age keys (which the header does not name) differs. */
  ageKeys?: { now: number; wanted: number };
}

/**
 * How the keys `wanted` (from the value's names, expanded with recipients.hcl) differ from what the
 * header holds; undefined when they agree as far as the header tells.
 */
export function recipientChange(header: HeaderRecipients, wanted: readonly string[], recipients: Recipients): RecipientChange | undefined {
  const nameOf = new Map<string, string>();
  for (const [name, { key }] of recipients.keys) nameOf.set(key, name);
  const present = new Set(header.sshTags.map((t) => t.replace(/=+$/, '')));
  const wantedTags = new Map<string, string>();
  let wantedAge = 0;
  for (const key of wanted) {
    const tag = sshTag(key);
    if (tag === undefined) wantedAge++;
    else wantedTags.set(tag, nameOf.get(key) ?? key);
  }
  const added = [...wantedTags].filter(([tag]) => !present.has(tag)).map(([, name]) => name);
  const tagName = new Map<string, string>();
  for (const [name, { key }] of recipients.keys) {
    const tag = sshTag(key);
    if (tag !== undefined) tagName.set(tag, name);
  }
  const removed = [...present].filter((tag) => !wantedTags.has(tag)).map((tag) => tagName.get(tag) ?? `an SSH key not in recipients.hcl (tag ${tag})`);
  if (header.other > 0) removed.push(`${header.other} key${header.other === 1 ? '' : 's'} of another type`);
  const ageKeys = wantedAge === header.x25519 ? undefined : { now: header.x25519, wanted: wantedAge };
  if (added.length === 0 && removed.length === 0 && ageKeys === undefined) return undefined;
  return { added, removed, ...(ageKeys ? { ageKeys } : {}) };
}

export function describeChange(change: RecipientChange): string {
  const parts: string[] = [];
  if (change.added.length > 0) parts.push(`adds ${change.added.join(', ')}`);
  if (change.removed.length > 0) parts.push(`removes ${change.removed.join(', ')}`);
  if (change.ageKeys) parts.push(`age keys ${change.ageKeys.now} -> ${change.ageKeys.wanted}`);
  return parts.join('; ');
}

/**
 * The hosts and people the header shows the value is encrypted to: an SSH key by its stanza's tag,
 * an age key only when it is one of `ownAgeKeys` (the identity that just decrypted the value).
 */
export function verifiedMembers(header: HeaderRecipients, recipients: Recipients, ownAgeKeys: readonly Buffer[]): Set<string> {
  const tags = new Set(header.sshTags.map((t) => t.replace(/=+$/, '')));
  const verified = new Set<string>();
  for (const [name, { key }] of recipients.keys) {
    const tag = sshTag(key);
    if (tag !== undefined ? tags.has(tag) : header.x25519 > 0 && ownAgeKeys.some((own) => own.equals(ageKeyBytes(key)))) verified.add(name);
  }
  return verified;
}

function ageKeyBytes(key: string): Buffer {
  try {
    return bech32Decode(key, 'age');
  } catch {
    return Buffer.alloc(0);
  }
}
