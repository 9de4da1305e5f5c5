// Every host's newest value in a bucket, in one pass: a consumer of the bucket's stream that starts
// at the last value of each key, delivered to a plain subscription without acknowledgements, and
// read until the server says nothing is pending. One round trip and a stream of messages rather than
// a get per host; and a plain callback rather than the client's ordered consumer with an async
// iterator, which took three times as long for 10,000 hosts (bench/fleet/inventory.ts).
// The consumer has the server's flow control: without it the server sends as fast as it reads its
// store, and at 100,000 hosts (275 MB) the connection passed the 64 MiB a server lets a client fall
// behind, was cut as a slow consumer, and the read never ended (docs/fleet.md, "Measured: 100,000
// hosts on one server"). With it, each consumer has at most 32 MiB under way, so one connection
// takes one consumer's stream at a time.
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { StreamInfo } from '@nats-io/jetstream';
import { createBucket, isMissingBucket } from './buckets.js';
import { directSnapshot } from './direct-snapshot.js';
import { natsJetstream, natsTransport } from './nats.js';
import { deadlineIn, untilAnswered } from './transient.js';

export interface SnapshotOptions {
  inboxPrefix?: string;
  /** Replicas of the bucket when this read makes it (FleetSettings.replicas). */
  replicas?: number;
  /** When the read must be over (ms since the epoch): a cluster electing a leader is waited for until then. */
  deadline?: number;
  /**
   * What to keep of each value, as it comes (default all of it): a reader that needs little of
   * 100,000 hosts' values keeps little, and the collector's work with it (published.ts, factsCutTo).
   */
  keep?: (key: string, value: unknown) => unknown;
}

/** Key -> parsed JSON value; a missing bucket is an empty one. Values that are not JSON are left out. */
export async function bucketSnapshot<T>(nc: NatsConnection, bucket: string, o: SnapshotOptions = {}): Promise<Map<string, T>> {
  const values = new Map<string, T>();
  const keep = o.keep ?? ((_key: string, v: unknown) => v);
  const stream = `KV_${bucket}`;
  const prefix = `$KV.${bucket}.`;
  const deadline = o.deadline ?? deadlineIn();
  const clustered = nc.info?.cluster !== undefined;
  const { jetstreamManager } = natsJetstream();
  let info: StreamInfo;
  try {
    info = await untilAnswered(deadline, clustered, async (ms) => (await jetstreamManager(nc, { checkAPI: false, timeout: ms })).streams.info(stream));
  } catch (e) {
    if (!isMissingBucket(e)) throw e;
    // The operators' first `govern fleet` makes the buckets, which hosts' credentials cannot.
    await createBucket(nc, bucket, o.replicas).catch(() => undefined);
    return values;
  }
  if (info.state.messages === 0) return values;
  if ((info.config.num_replicas ?? 1) > 1 && info.config.allow_direct === true) {
    await directSnapshot(nc, stream, prefix, deadline, (key, msg) => take(values, key, msg, keep));
    return values;
  }
  // A bucket that keeps one value per key holds nothing but the last ones: read in the stream's order,
  // without the server first finding each key's last value (a fifth of a second at 100,000 keys).
  const onlyLast = info.config.max_msgs_per_subject === 1;
  await oneStreamAtATime(nc, () => streamLastValues(nc, stream, prefix, (key, msg) => take(values, key, msg, keep), { onlyLast, inboxPrefix: o.inboxPrefix }));
  return values;
}

/** The stream's last value of each key under `prefix`, each given to `take`, through a consumer made for the read. */
async function streamLastValues(nc: NatsConnection, stream: string, prefix: string, each: (key: string, msg: Msg) => void, o: { onlyLast: boolean; inboxPrefix?: string }): Promise<void> {
  // Under the connection's own inbox prefix, which a host's permissions let it hear.
  const { createInbox, nuid } = natsTransport();
  const { AckPolicy, DeliverPolicy, ReplayPolicy, jetstreamManager } = natsJetstream();
  const inbox = createInbox(o.inboxPrefix);
  let sub: Subscription | undefined;
  let delivered = 0;
  const done = new Promise<void>((resolve, reject) => {
    sub = nc.subscribe(inbox, {
      callback: (err, msg) => {
        if (err) return reject(err);
        if (msg.subject === inbox) return flowControl(nc, msg);
        // A connection cut and made again loses what was sent meanwhile: a gap in the consumer's
        // sequence fails the read rather than answering for fewer hosts than there are.
        const [sequence, pending] = deliveryCounts(msg);
        if (sequence !== ++delivered) return reject(new Error(`values were lost on the way (message ${sequence} came after ${delivered - 1}): the connection was cut`));
        each(msg.subject.slice(prefix.length), msg);
        if (pending === 0) resolve();
      },
    });
  });
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  const name = `govern_snapshot_${nuid.next()}`;
  await nc.flush();
  await jsm.consumers.add(stream, {
    name,
    deliver_subject: inbox,
    deliver_policy: o.onlyLast ? DeliverPolicy.All : DeliverPolicy.LastPerSubject,
    ack_policy: AckPolicy.None,
    replay_policy: ReplayPolicy.Instant,
    filter_subject: `${prefix}>`,
    // Removed by the server soon after this reader is gone, also when it is gone unexpectedly.
    inactive_threshold: 5_000_000_000,
    mem_storage: true,
    flow_control: true,
    // Required with flow control; a heartbeat also says when the server waits for an answer it missed.
    idle_heartbeat: 1_000_000_000,
  });
  try {
    await done;
  } finally {
    sub?.unsubscribe();
    await jsm.consumers.delete(stream, name).catch(() => undefined);
  }
}

/** The streams being read on each connection, one after the other. */
const reading = new WeakMap<NatsConnection, Promise<void>>();

function oneStreamAtATime(nc: NatsConnection, read: () => Promise<void>): Promise<void> {
  const turn = (reading.get(nc) ?? Promise.resolve()).then(read);
  reading.set(nc, turn.catch(() => undefined));
  return turn;
}

/**
 * A message of the server's on the deliver subject: a flow control request, answered so that it
 * sends more, or an idle heartbeat, which names the request it still waits for when it stalled.
 * Only the server's own flow control subjects are answered: the inbox is not a secret.
 */
function flowControl(nc: NatsConnection, msg: Msg): void {
  const to = msg.reply ?? msg.headers?.get('Nats-Consumer-Stalled') ?? '';
  if (to.startsWith('$JS.FC.')) nc.publish(to);
}

/** Makes the bucket when it does not exist yet (as a read of it would). */
export async function ensureBucket(nc: NatsConnection, bucket: string, o: SnapshotOptions = {}): Promise<void> {
  const deadline = o.deadline ?? deadlineIn();
  const clustered = nc.info?.cluster !== undefined;
  try {
    await untilAnswered(deadline, clustered, async (ms) => (await natsJetstream().jetstreamManager(nc, { checkAPI: false, timeout: ms })).streams.info(`KV_${bucket}`));
  } catch (e) {
    if (!isMissingBucket(e)) throw e;
    await createBucket(nc, bucket, o.replicas).catch(() => undefined);
  }
}

/** The consumer's sequence of a JetStream message and the number still to come: its reply subject's third-last and last tokens. */
function deliveryCounts(msg: Msg): [number, number] {
  const tokens = (msg.reply ?? '').split('.');
  return [Number(tokens[tokens.length - 3]), Number(tokens[tokens.length - 1])];
}

function take<T>(values: Map<string, T>, key: string, msg: Pick<Msg, 'data' | 'json'>, keep: (key: string, value: unknown) => unknown): void {
  // A delete or purge marker has no data (and says which in a header, not read: parsing every
  // message's headers costs more than the rest of reading it).
  if (msg.data.length === 0) {
    values.delete(key);
    return;
  }
  let value: unknown;
  try {
    value = msg.json<unknown>();
  } catch {
    return; // another program's value under our bucket: not a host of ours
  }
  values.set(key, keep(key, value) as T);
}
