// 10,000 listeners and a server restart: how fast they come back, and how many connection attempts a
// second the server (its kernel) sees meanwhile. LISTENERS connections held by this process, as
// `govern listen` holds one (connectFleet with forever: the backoff of src/fleet/backoff.ts), then the
// nats-server stopped, DOWN seconds later started again on the same port; the same again with the
// reconnect settings govern had before (1 s plus up to 1 s of jitter), for the pair. Attempts are
// counted per second from the clients' own status events (one `reconnecting` per dial).
//   node dist/bench/fleet/reconnects.js [--listeners 10000] [--down 5]
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectFleet } from '../../src/fleet/connection.js';
import { natsTransport } from '../../src/fleet/nats.js';
import { startNats, type NatsServer } from '../../test/support/nats.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const LISTENERS = Number(args.get('listeners') ?? 10_000);
const DOWN_S = Number(args.get('down') ?? 5);

type Connect = (url: string) => Promise<NatsConnection>;

const withBackoff: Connect = (url) => connectFleet({ url, timeoutMs: 20_000 }, { clientName: 'bench listener', forever: true });
const before: Connect = (url) =>
  natsTransport().connect({ servers: url, timeout: 20_000, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 1_000, reconnectJitter: 1_000, waitOnFirstConnect: true });

async function phase(label: string, make: Connect): Promise<void> {
  let nats: NatsServer = await startNats();
  const port = nats.port;
  const conns: NatsConnection[] = [];
  for (let i = 0; i < LISTENERS; i += 200) conns.push(...(await Promise.all(Array.from({ length: Math.min(200, LISTENERS - i) }, () => make(nats.url)))));
  const attempts = new Map<number, number>();
  const back = new Map<number, number>();
  let t0 = 0;
  let reconnected = 0;
  const second = () => Math.floor((Date.now() - t0) / 1000);
  const bump = (m: Map<number, number>) => m.set(second(), (m.get(second()) ?? 0) + 1);
  for (const nc of conns) {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'reconnecting') bump(attempts);
        if (s.type === 'reconnect') {
          bump(back);
          reconnected++;
        }
      }
    })().catch(() => undefined);
  }
  t0 = Date.now();
  await nats.stop();
  await sleep(DOWN_S * 1000);
  const upAt = second();
  nats = await startNats(`listen: "127.0.0.1:${port}"`);
  while (reconnected < LISTENERS && second() < 900) await sleep(200);
  const all = second();
  const peak = Math.max(...attempts.values());
  const peakUp = Math.max(...[...attempts].filter(([s]) => s >= upAt).map(([, n]) => n));
  console.log(`${label}: ${LISTENERS} listeners, server down ${DOWN_S} s (back at ${upAt} s): ${reconnected} reconnected, all by ${all} s; attempts ${[...attempts.values()].reduce((a, b) => a + b, 0)} in all, peak ${peak}/s (${peakUp}/s once the server was back); reconnects peak ${Math.max(...back.values())}/s`);
  console.log(`  attempts per second: ${Array.from({ length: all + 1 }, (_, s) => attempts.get(s) ?? 0).join(' ')}`);
  await Promise.all(conns.map((nc) => nc.close().catch(() => undefined)));
  await nats.stop();
}

async function main(): Promise<void> {
  await phase('govern listen (backoff.ts)', withBackoff);
  await phase('before (1 s + up to 1 s jitter)', before);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
