// The NATS client, loaded when govern first talks to a server: a run of a host without a fleet, and
// every command that needs none, never loads it (bench/README.md, "Start-up, round three"). In the bundle each
// package is a file of its own beside the core (scripts/bundle.js), read only by these calls.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Jetstream from '@nats-io/jetstream';
import type * as Kv from '@nats-io/kv';
import type * as Nkeys from '@nats-io/nkeys';
import type * as Transport from '@nats-io/transport-node';

export const natsTransport = (): typeof Transport => require('@nats-io/transport-node') as typeof Transport;
export const natsJetstream = (): typeof Jetstream => require('@nats-io/jetstream') as typeof Jetstream;
export const natsKv = (): typeof Kv => require('@nats-io/kv') as typeof Kv;
export const natsKeys = (): typeof Nkeys => require('@nats-io/nkeys') as typeof Nkeys;
