// A run's side of the relay (relay.ts): its puts through the host's listener, when one serves the
// socket. undefined means no listener answered (no socket, refused, not ours, too slow, or it could
// not publish): the run publishes over its own connection then (publish.ts).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ownedAndPrivate } from '../shared/trust.js';
import { relayPath, type RelayAnswer, type RelayPut } from './relay.js';

/** A listener answers in milliseconds when connected; past this the run's own connection is quicker. */
export const RELAY_WAIT_MS = 1_000;

export async function publishViaRelay(url: string, puts: RelayPut[], waitMs: number, file = relayPath()): Promise<'relayed' | undefined> {
  if (!trusted(file)) return undefined;
  return new Promise((resolve) => {
    let text = '';
    const socket = net.createConnection(file);
    const done = (r: 'relayed' | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done(undefined), waitMs);
    socket.setEncoding('utf8');
    socket.on('error', () => done(undefined));
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 4096) done(undefined);
    });
    socket.on('end', () => {
      try {
        done((JSON.parse(text) as RelayAnswer).ok === true ? 'relayed' : undefined);
      } catch {
        done(undefined);
      }
    });
    socket.end(`${JSON.stringify({ url, puts })}\n`);
  });
}

/** The socket, and the directory it is in, are ours and no one else's to write (as the run lock's). */
function trusted(file: string): boolean {
  try {
    const dir = fs.lstatSync(path.dirname(file));
    const st = fs.lstatSync(file);
    return dir.isDirectory() && ownedAndPrivate(dir) && st.isSocket() && ownedAndPrivate(st) && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
