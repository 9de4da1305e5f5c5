// The NATS client, loaded when govern first talks to a server: a run of a host without a fleet, and
// every command that needs none, never loads it (bench/README.md, "Start-up, round three"). In the bundle each
// package is a file of its own beside the core (scripts/bundle.js), read only by these calls.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Jetstream from '@nats-io/jetstream';
import type * as Kv from '@nats-io/kv';
import type * as Nkeys from '@nats-io/nkeys';
import type * as Transport from '@nats-io/transport-node';

export const natsTransport = (): typeof Transport => {
  withGlobalWebCrypto();
  return require('@nats-io/transport-node') as typeof Transport;
};
export const natsJetstream = (): typeof Jetstream => require('@nats-io/jetstream') as typeof Jetstream;
export const natsKv = (): typeof Kv => require('@nats-io/kv') as typeof Kv;
export const natsKeys = (): typeof Nkeys => require('@nats-io/nkeys') as typeof Nkeys;

/**
 * The client's ids (inboxes, a run request's id: @nats-io/nuid) take their random prefix from the
 * global `crypto`, and from Math.random where there is none: Node 18 has Web Crypto only as
 * `require('node:crypto').webcrypto` (Node 19 made it the global), so it is put there first.
 */
function withGlobalWebCrypto(): void {
  const g = globalThis as { crypto?: unknown };
  if (g.crypto === undefined) Object.defineProperty(globalThis, 'crypto', { value: (require('node:crypto') as typeof import('node:crypto')).webcrypto, configurable: true, writable: true });
}
