// The one rule of every reader of a `--where` selection (`govern fleet --where`, `govern fleet run`,
// the `hosts` template helper): the publishers' fact index (indexed-read.ts) when it can answer, else
// the whole read. The index cannot answer when some host keeps no index (the count of markers falls
// short), when the selection is too large to be worth a get per host, or when no condition is on an
// indexed fact. An answer of no host is read again whole, so that "no host matches" is the whole
// fleet's word (and its hint what the whole fleet published), never an index's that may lag.
import type { NatsConnection } from '@nats-io/transport-node';
import type { Condition } from '../facts/inventory.js';
import { within } from './connection.js';
import { readByIndex, type IndexAnswer } from './indexed-read.js';
import { fleetProblem, type FleetState } from './read-fleet.js';
import { deadlineIn } from './transient.js';

export interface Selected<T> {
  /** What was read: the index's hosts, or the whole fleet. */
  state: FleetState;
  selected: T[];
  /** The index answered (else the whole fleet was read). */
  indexed: boolean;
}

/**
 * `pick` chooses from what was read by the hosts' real facts, as from a whole read: the index's
 * entries are what hosts say of themselves, so an entry that lies selects nothing.
 */
export async function selectHosts<T>(
  nc: NatsConnection,
  where: readonly Condition[],
  timeoutMs: number,
  pick: (state: FleetState) => T[],
  whole: () => Promise<FleetState>,
): Promise<Selected<T>> {
  const answer = await fleetProblem(nc.getServer(), within(timeoutMs, 'reading the index', readByIndex(nc, where, deadlineIn(timeoutMs)).catch(notPermitted)));
  if (answer.ok) {
    const selected = pick(answer.state);
    if (selected.length > 0) return { state: answer.state, selected, indexed: true };
  }
  const state = await whole();
  return { state, selected: pick(state), indexed: false };
}

/**
 * Credentials that may not read the index (a host's, under a server configuration older than the
 * index: docs/fleet.md's example lists what to allow) read the whole fleet, as before the index.
 */
function notPermitted(e: unknown): IndexAnswer {
  const err = e as Error;
  if (err?.name === 'PermissionViolationError' || /permissions violation/i.test(err?.message ?? '')) return { ok: false, why: `not permitted to read the index (${err.message})` };
  throw e;
}
