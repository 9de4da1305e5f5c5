// `govern listen`: a small long-running process that waits on the host's own subject for a request
// to run now, answers it, and starts the host's usual run (govern.service by default), so that the
// run lock, the pull and the record are those of every other run. Reconnects without end, jittered.
import type { NatsConnection } from '@nats-io/transport-node';
import { runCommand } from '../shared/process.js';
import { connectFleet } from './connection.js';
import { hostInbox } from './publish.js';
import { parseRunRequest, runSubject, type RunReply } from './run-request.js';
import type { FleetSettings } from './settings.js';

export interface ListenOptions {
  settings: FleetSettings;
  host: string;
  /** argv of what starts a run: `systemctl --no-block start govern.service`. */
  runCommand: string[];
  log: { info(text: string): void; warn(text: string): void };
}

export interface Listening {
  /** Resolves when the connection is closed for good (stop(), or the server refused us). */
  closed: Promise<void>;
  stop(): Promise<void>;
}

export async function listen(o: ListenOptions): Promise<Listening> {
  const nc: NatsConnection = await connectFleet(o.settings, { clientName: `govern listen ${o.host}`, inboxPrefix: hostInbox(o.host), forever: true });
  const subject = runSubject(o.host);
  nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return o.log.warn(`listening on ${subject}: ${err.message}`);
      let reply: RunReply;
      try {
        const request = parseRunRequest(msg.string());
        o.log.info(`run requested by ${request.by} (request ${request.id}): ${o.runCommand.join(' ')}`);
        reply = { accepted: true };
        void start(o);
      } catch (e) {
        reply = { accepted: false, reason: (e as Error).message };
        o.log.warn(`refused a request on ${subject}: ${reply.reason}`);
      }
      msg.respond(JSON.stringify(reply));
    },
  });
  await nc.flush();
  o.log.info(`listening on ${subject} at ${nc.getServer()}`);
  (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') o.log.info(`fleet connection: ${s.type}${'server' in s ? ` ${s.server}` : ''}`);
    }
  })().catch(() => undefined);
  return { closed: nc.closed().then(() => undefined), stop: () => nc.drain() };
}

async function start(o: ListenOptions): Promise<void> {
  const [command, ...args] = o.runCommand;
  const r = await runCommand(command, args, { timeoutMs: 120_000 });
  if (r.code !== 0) o.log.warn(`${o.runCommand.join(' ')} failed (exit ${r.code ?? r.signal}): ${(r.stderr || r.stdout).trim()}`);
}
