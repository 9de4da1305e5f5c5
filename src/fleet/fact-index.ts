// The index of the facts `govern fleet --where` selects on, kept by the publishers in govern_index
// (docs/fleet.md, "The index"): a key per host and indexed fact, `v.FACT.VALUE.HOST`, the fact's
// name and value each one subject token (base64url of its UTF-8, which any text survives), and a
// marker under HOST in govern_indexed that says the host keeps its entries and lists them (a bucket
// of its own, so that a reader counts the markers from the stream's state, against the facts' keys,
// without listing them). A reader lists the subjects
// under `v.FACT.VALUE.` (host names, no values read), and reads only those hosts' records; the
// entries are what hosts say of themselves, so the reader checks each selected host's real facts.
import type { Condition } from '../facts/inventory.js';
import type { HostFacts } from './host-record.js';

/**
 * The facts kept in the index: what fleets select on. Few, since nats-server 2.9 lists a prefix's
 * subjects by going over every subject of the stream (0.7 µs each, measured): with nine facts
 * (fqdn, hostname and os/* too) a selection of one host cost 0.66 s of server CPU at 100,000 hosts.
 */
export const INDEXED_FACTS: readonly string[] = ['role', 'env', 'environment'];
/** A longer value is not indexed (a selection on it reads the whole fleet): keys stay short. */
export const MAX_INDEXED_BYTES = 128;
/** The marker's format; a reader takes a host's entries only from a marker of this one or later. */
export const INDEX_FORMAT = 1;

export function token(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The index can answer a selection on this fact and value (the publishers' rule and the readers'). */
export function indexable(c: Condition): boolean {
  return INDEXED_FACTS.includes(c.fact) && c.value.length > 0 && Buffer.byteLength(c.value) <= MAX_INDEXED_BYTES;
}

/** The prefix of the keys of every host whose indexed fact has this value. */
export function entryPrefix(c: Condition): string {
  return `v.${token(c.fact)}.${token(c.value)}.`;
}

/** The host's entries for these facts, in the order of INDEXED_FACTS. */
export function indexEntries(facts: HostFacts): string[] {
  return INDEXED_FACTS.flatMap((fact) => {
    const value = facts.facts[fact];
    return typeof value === 'string' && indexable({ fact, value }) ? [`${entryPrefix({ fact, value })}${facts.host}`] : [];
  });
}

/** What the marker holds: the entries the host put, so that its next publish can delete those that went. */
export interface IndexMarker {
  format: number;
  entries: string[];
}

/** The host's own marker as read back; anything else (not JSON, another shape, too many) is none. */
export function parseMarker(text: string | undefined, host: string): IndexMarker | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as IndexMarker;
    const ours = (e: unknown) => typeof e === 'string' && e.startsWith('v.') && e.endsWith(`.${host}`);
    if (typeof v?.format !== 'number' || !Array.isArray(v.entries) || v.entries.length > INDEXED_FACTS.length * 4 || !v.entries.every(ours)) return undefined;
    return v;
  } catch {
    return undefined;
  }
}
