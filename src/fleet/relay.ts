// The listener's connection lent to the host's own runs: `govern listen` serves a local socket in the
// lock directory (root's alone, checked as the run lock's is), and a run that finds it publishes its
// two puts through it rather than connecting itself (relay-client.ts): one connection per host at the
// server instead of one more per run, and no handshake per run. Only this host's keys in the two
// buckets are relayed, a request is bounded, and an answer comes only while the connection is up,
// so that a run falls back to its own connection at once when the listener cannot publish.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureLockDir, lockDir } from '../shared/lock-dir.js';
import { putHostValues } from './index-publish.js';
import { FACTS_BUCKET, RUNS_BUCKET } from './settings.js';
import { deadlineIn } from './transient.js';

export const RELAY_SOCKET = 'fleet.sock';
/** A run's two values together: its summary and its facts are a few kB; this leaves room for large facts. */
export const MAX_RELAY_BYTES = 4 * 1024 * 1024;

export interface RelayPut {
  bucket: string;
  key: string;
  value: string;
}
export type RelayAnswer = { ok: true } | { ok: false; error: string };

export function relayPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(lockDir(env), RELAY_SOCKET);
}

/** Why a request cannot be relayed, or the puts it asks for. `url`: the listener's --fleet-url, which the run's must be. */
export function parseRelayRequest(text: string, host: string, url: string): RelayPut[] | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  // A run told of another fleet (a test server, say) publishes there, not to the listener's.
  if ((v as { url?: unknown })?.url !== url) return 'not the fleet this listener is connected to';
  const puts = (v as { puts?: unknown })?.puts;
  if (!Array.isArray(puts) || puts.length === 0 || puts.length > 2) return 'puts is not a list of one or two';
  for (const p of puts as RelayPut[]) {
    if (typeof p !== 'object' || p === null || typeof p.value !== 'string') return 'a put without a value';
    if (p.bucket !== RUNS_BUCKET && p.bucket !== FACTS_BUCKET) return `not a fleet bucket: ${String(p.bucket)}`;
    if (p.key !== host) return `not this host's key: ${String(p.key)}`;
  }
  return puts as RelayPut[];
}

export interface Relay {
  close(): void;
}

/** Serves the relay socket for the host and fleet of `nc`; `connected()` says whether the connection is up now. */
export function serveRelay(nc: NatsConnection, fleet: { host: string; url: string; timeoutMs: number; replicas?: number }, connected: () => boolean, warn: (text: string) => void): Relay {
  const file = relayPath();
  ensureLockDir(path.dirname(file));
  fs.rmSync(file, { force: true }); // a socket a listener before this one left
  // Half-open: the run ends its side once it has written, and the answer still goes back.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    let text = '';
    let size = 0;
    const answer = (a: RelayAnswer) => socket.end(`${JSON.stringify(a)}\n`);
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      size += Buffer.byteLength(chunk);
      if (size > MAX_RELAY_BYTES) {
        answer({ ok: false, error: `more than ${MAX_RELAY_BYTES} bytes` });
        socket.destroySoon();
        return;
      }
      text += chunk;
    });
    socket.on('end', () => {
      if (size > MAX_RELAY_BYTES) return;
      const puts = parseRelayRequest(text, fleet.host, fleet.url);
      if (typeof puts === 'string') answer({ ok: false, error: puts });
      else if (!connected()) answer({ ok: false, error: 'the listener is not connected' });
      else
        putHostValues(nc, fleet.host, puts, { replicas: fleet.replicas, deadline: deadlineIn(fleet.timeoutMs) })
          .then((index) => {
            if (index !== undefined) warn(`the fleet's index of ${fleet.host} was not kept: ${index}`);
            answer({ ok: true });
          })
        .catch((e: Error) => answer({ ok: false, error: e.message }));
    });
  });
  server.on('error', (e) => warn(`the relay socket ${file}: ${e.message}`));
  const mask = process.umask(0o077); // the socket is made its owner's alone: no moment when others could connect
  try {
    server.listen(file);
  } finally {
    process.umask(mask);
  }
  const made = new Promise<number | undefined>((resolve) => server.once('listening', () => resolve(inode(file))));
  return {
    close: () => {
      server.close();
      // Only the socket this listener made: another may have taken the name since.
      void made.then((ino) => {
        if (ino !== undefined && inode(file) === ino) fs.rmSync(file, { force: true });
      });
    },
  };
}

function inode(file: string): number | undefined {
  try {
    return fs.lstatSync(file).ino;
  } catch {
    return undefined;
  }
}
