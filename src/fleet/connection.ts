// One connection to the fleet's NATS server, with the host's credentials and TLS settings. Reconnects
// are jittered so that a fleet whose server restarts does not come back all in the same instant:
// a command's within a second or two, the listener's over minutes (backoff.ts).
import fs from 'node:fs';
import type { NatsConnection } from '@nats-io/transport-node';
import { UserError } from '../shared/errors.js';
import { trustedSecret } from '../shared/trust.js';
import { Backoff } from './backoff.js';
import { natsTransport } from './nats.js';
import type { FleetSettings } from './settings.js';

export interface ConnectOptions {
  /** Shown by the server's monitoring (`connz`): `govern run web1.example.org`. */
  clientName: string;
  /** Replies come to subjects under this prefix, which a host's permissions can allow alone. */
  inboxPrefix?: string;
  /** Reconnect without end (the listener), or stop trying when the command's time is up. */
  forever?: boolean;
}

export async function connectFleet(settings: FleetSettings, o: ConnectOptions): Promise<NatsConnection> {
  // The listener's attempts back off over minutes (backoff.ts); a command's few stay a second apart.
  const backoff = o.forever ? new Backoff() : undefined;
  const nc = await natsTransport().connect({
    servers: settings.url.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    name: o.clientName,
    timeout: settings.timeoutMs,
    authenticator: settings.credsFile === undefined ? undefined : authenticator(settings.credsFile),
    tls: settings.caFile === undefined ? undefined : { caFile: settings.caFile },
    inboxPrefix: o.inboxPrefix,
    reconnect: true,
    maxReconnectAttempts: o.forever ? -1 : 10,
    reconnectTimeWait: 1_000,
    reconnectJitter: 1_000,
    reconnectJitterTLS: 2_000,
    waitOnFirstConnect: o.forever === true,
    ...(backoff === undefined ? {} : { reconnectDelayHandler: () => 0, reconnectToServer: (pool) => ({ server: pool[0], delay: backoff.next() }) }),
  });
  if (backoff !== undefined) {
    backoff.connected();
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'reconnect') backoff.connected();
    })().catch(() => undefined);
  }
  return nc;
}

/** A .creds file (JWT and seed) as nsc writes it, or a file with only a user's nkey seed (SU...). */
function authenticator(file: string) {
  const trusted = trustedSecret(file, 'the fleet credentials');
  if ('refused' in trusted) throw new UserError(trusted.refused);
  let text: string;
  try {
    text = fs.readFileSync(trusted.path, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the fleet credentials ${file}: ${(e as Error).message}`);
  }
  if (text.includes('BEGIN NATS USER JWT')) return natsTransport().credsAuthenticator(new TextEncoder().encode(text));
  const seed = /\bSU[A-Z2-7]{56}\b/.exec(text)?.[0];
  if (seed === undefined) throw new UserError(`${file}: neither a NATS credentials file nor a user nkey seed (SU...)`);
  return natsTransport().nkeyAuthenticator(new TextEncoder().encode(seed));
}

/** Settles within ms, or rejects; what it waited for is left to finish or fail unobserved. */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
