// `govern listen`: a small long-running process that waits on the host's own subject for a request
// to run now, starts the host's usual run (govern.service by default), so that the run lock, the
// pull and the record are those of every other run, and answers. Reconnects without end, jittered.
// A request is honoured only when an operator's key signed it for this host (request-signature.ts):
// the subject cannot vouch for its sender, since anyone who may make a push consumer can have the
// server deliver to any subject (docs/security.md, "Run requests").
import type { NatsConnection } from '@nats-io/transport-node';
import { commandFailure } from '../shared/command-failure.js';
import { runCommand } from '../shared/process.js';
import { connectFleet } from './connection.js';
import { hostInbox } from './publish.js';
import { fleetProblem } from './read-fleet.js';
import { serveRelay, type Relay } from './relay.js';
import type { SignatureCheck } from './request-signature.js';
import { RunFollower } from './run-after.js';
import { parseRunRequest, runSubject, type RunReply, type RunRequest } from './run-request.js';
import type { FleetSettings } from './settings.js';

/** What the run command may take: `systemctl --no-block start` returns once the start is queued. */
const START_TIMEOUT_MS = 120_000;

export interface ListenOptions {
  settings: FleetSettings;
  host: string;
  /** argv of what starts a run and returns: `systemctl --no-block start govern.service`. */
  runCommand: string[];
  log: { info(text: string): void; warn(text: string): void };
  /** Only requests signed by one of these keys, for this host, are honoured (--allowed-keys). */
  signatures: SignatureCheck;
}

export interface Listening {
  /** Resolves when the connection is closed for good: by stop(), or with the server's refusal. */
  closed: Promise<Error | undefined>;
  stop(): Promise<void>;
}

export async function listen(o: ListenOptions): Promise<Listening> {
  // Refused at once (credentials the server does not know): the user's problem, said as such.
  const nc: NatsConnection = await fleetProblem(o.settings.url, connectFleet(o.settings, { clientName: `govern listen ${o.host}`, inboxPrefix: hostInbox(o.host), forever: true }));
  const subject = runSubject(o.host);
  let closing = false;
  let latest = '';
  // One start asked at a time, whoever asks (a request, or the follow-up of one): a request that
  // comes while a start is under way waits for that start's answer rather than starting another.
  let starting: Promise<string | undefined> | undefined;
  const start = () => (starting ??= startRun(o).finally(() => (starting = undefined)));
  const follower = new RunFollower({ start, stopped: () => closing, warn: (text) => o.log.warn(`request ${latest}: ${text}`) });
  const follow = (id: string, sinceMs: number) => {
    latest = id;
    void follower.after(sinceMs);
  };
  // Said at most once a minute, with a count: a consumer delivering here without end must not fill the journal.
  let ignoredSince = 0;
  let lastSaid = -Infinity;
  const ignored = (why: string) => {
    ignoredSince++;
    if (Date.now() - lastSaid < 60_000) return;
    o.log.warn(`ignored a message on ${subject} that is no request (${why})${ignoredSince > 1 ? `, and ${ignoredSince - 1} more since the last such line` : ''}`);
    lastSaid = Date.now();
    ignoredSince = 0;
  };
  nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return o.log.warn(`listening on ${subject}: ${err.message}`);
      // A request has a reply subject of its sender's; a message a stream's consumer delivered here has none, or the stream's.
      if (!msg.reply || msg.reply.startsWith('$JS.')) return ignored(msg.reply ? 'delivered by a JetStream consumer' : 'no reply subject');
      answer(o, subject, msg.string(), { start, follow, following: () => follower.busy })
        .then((reply) => msg.respond(JSON.stringify(reply)))
        .catch((e: Error) => o.log.warn(`answering on ${subject}: ${e.message}`));
    },
  });
  await nc.flush();
  o.log.info(`listening on ${subject} at ${nc.getServer()}`);
  let connected = true;
  (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect') connected = s.type === 'reconnect';
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') o.log.info(`fleet connection: ${s.type}${'server' in s ? ` ${s.server}` : ''}`);
    }
  })().catch(() => undefined);
  const relay = lendConnection(o, nc, () => connected);
  const closed = nc.closed().then((e) => {
    relay?.close();
    return closing ? undefined : (e ?? undefined);
  });
  return {
    closed,
    stop: () => {
      closing = true;
      relay?.close();
      return nc.drain();
    },
  };
}

/**
 * Accepted once the run command has succeeded (systemctl has queued the start), refused with its
 * failure otherwise, so the operator learns of a unit that is missing or will not start at once.
 * `since` is this host's clock when the request came: the requester counts only a run that began
 * then or later (a run already under way may not include what the request is about), and the
 * listener sees to it that such a run follows (run-after.ts).
 */
interface Starts {
  start(): Promise<string | undefined>;
  follow(id: string, sinceMs: number): void;
  /** A run is being followed up already: it will be started again as needed, for this request too. */
  following(): boolean;
}

async function answer(o: ListenOptions, subject: string, data: string, starts: Starts): Promise<RunReply> {
  const since = new Date().toISOString();
  let request: RunRequest;
  try {
    request = parseRunRequest(data);
  } catch (e) {
    const reason = (e as Error).message;
    o.log.warn(`refused a request on ${subject}: ${reason}`);
    return { accepted: false, reason };
  }
  const unsigned = o.signatures.refusal(request, Date.now());
  if (unsigned !== undefined) {
    o.log.warn(`refused request ${request.id} by ${request.by}: ${unsigned}`);
    return { accepted: false, reason: unsigned };
  }
  // Joining a follow-up under way moves its target to this request (run-after.ts): no start of its own.
  if (starts.following()) {
    o.log.info(`run requested by ${request.by} (request ${request.id}, signed by ${request.key}): joins the run asked already`);
    starts.follow(request.id, Date.parse(since));
    return { accepted: true, since };
  }
  o.log.info(`run requested by ${request.by} (request ${request.id}, signed by ${request.key}): ${o.runCommand.join(' ')}`);
  const problem = await starts.start();
  if (problem === undefined) {
    starts.follow(request.id, Date.parse(since));
    return { accepted: true, since };
  }
  const reason = `could not start its run: ${problem}`;
  o.log.warn(`request ${request.id}: ${reason}`);
  return { accepted: false, reason, start_failed: true };
}

/** The host's runs publish through this connection (relay.ts); without the socket they connect themselves, as before. */
function lendConnection(o: ListenOptions, nc: NatsConnection, connected: () => boolean): Relay | undefined {
  try {
    return serveRelay(nc, { host: o.host, url: o.settings.url, timeoutMs: o.settings.timeoutMs, replicas: o.settings.replicas }, connected, o.log.warn);
  } catch (e) {
    o.log.warn(`runs will publish over their own connections: ${(e as Error).message}`);
    return undefined;
  }
}

/** undefined when the run command succeeded; else its failure, in words. */
async function startRun(o: ListenOptions): Promise<string | undefined> {
  const [command, ...args] = o.runCommand;
  const r = await runCommand(command, args, { timeoutMs: START_TIMEOUT_MS });
  return r.code === 0 ? undefined : commandFailure(o.runCommand.join(' '), r, { timeoutMs: START_TIMEOUT_MS });
}
