// `govern listen`: a small long-running process that waits on the host's own subject for a request
// to run now, starts the host's usual run (govern.service by default), so that the run lock, the
// pull and the record are those of every other run, and answers. Reconnects without end, jittered.
import type { NatsConnection } from '@nats-io/transport-node';
import { commandFailure } from '../shared/command-failure.js';
import { runCommand } from '../shared/process.js';
import { connectFleet } from './connection.js';
import { hostInbox } from './publish.js';
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
  /** When given, only requests signed by one of these keys are honoured (--allowed-keys). */
  signatures?: SignatureCheck;
}

export interface Listening {
  /** Resolves when the connection is closed for good (stop(), or the server refused us). */
  closed: Promise<void>;
  stop(): Promise<void>;
}

export async function listen(o: ListenOptions): Promise<Listening> {
  const nc: NatsConnection = await connectFleet(o.settings, { clientName: `govern listen ${o.host}`, inboxPrefix: hostInbox(o.host), forever: true });
  const subject = runSubject(o.host);
  let closing = false;
  let latest = '';
  const follower = new RunFollower({ start: () => startRun(o), stopped: () => closing, warn: (text) => o.log.warn(`request ${latest}: ${text}`) });
  const follow = (id: string, sinceMs: number) => {
    latest = id;
    void follower.after(sinceMs);
  };
  nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return o.log.warn(`listening on ${subject}: ${err.message}`);
      answer(o, subject, msg.string(), follow)
        .then((reply) => msg.respond(JSON.stringify(reply)))
        .catch((e: Error) => o.log.warn(`answering on ${subject}: ${e.message}`));
    },
  });
  await nc.flush();
  o.log.info(`listening on ${subject} at ${nc.getServer()}`);
  (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') o.log.info(`fleet connection: ${s.type}${'server' in s ? ` ${s.server}` : ''}`);
    }
  })().catch(() => undefined);
  return {
    closed: nc.closed().then(() => undefined),
    stop: () => {
      closing = true;
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
async function answer(o: ListenOptions, subject: string, data: string, follow: (id: string, sinceMs: number) => void): Promise<RunReply> {
  const since = new Date().toISOString();
  let request: RunRequest;
  try {
    request = parseRunRequest(data);
  } catch (e) {
    const reason = (e as Error).message;
    o.log.warn(`refused a request on ${subject}: ${reason}`);
    return { accepted: false, reason };
  }
  const unsigned = o.signatures?.refusal(request, Date.now());
  if (unsigned !== undefined) {
    o.log.warn(`refused request ${request.id} by ${request.by}: ${unsigned}`);
    return { accepted: false, reason: unsigned };
  }
  o.log.info(`run requested by ${request.by} (request ${request.id}${request.key ? `, signed by ${request.key}` : ''}): ${o.runCommand.join(' ')}`);
  const problem = await startRun(o);
  if (problem === undefined) {
    follow(request.id, Date.parse(since));
    return { accepted: true, since };
  }
  const reason = `could not start its run: ${problem}`;
  o.log.warn(`request ${request.id}: ${reason}`);
  return { accepted: false, reason, start_failed: true };
}

/** undefined when the run command succeeded; else its failure, in words. */
async function startRun(o: ListenOptions): Promise<string | undefined> {
  const [command, ...args] = o.runCommand;
  const r = await runCommand(command, args, { timeoutMs: START_TIMEOUT_MS });
  return r.code === 0 ? undefined : commandFailure(o.runCommand.join(' '), r, { timeoutMs: START_TIMEOUT_MS });
}
