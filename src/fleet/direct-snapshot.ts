// Every key's newest value of a replicated bucket by direct gets, which every replica of its stream
// answers (allow_direct, which buckets made by govern have on nats-server 2.9 and later), so a read
// needs no particular server. The consumer snapshot.ts makes elsewhere is placed by the cluster on
// one of the stream's peers, and nats-server 2.9 places it on a peer that crashed as on any other
// until it is known to be gone (minutes): then it is never made, and the read gets no answer
// (test/fleet/cluster.test.ts). The keys come from the stream's own list of its subjects, which its
// leader gives. A get per key costs more than one consumer's stream of messages, so one server keeps
// the consumer; a server from 2.11 on answers a batch get (docs/fleet.md).
import type { NatsConnection } from '@nats-io/transport-node';
import type { JetStreamManager, StoredMsg } from '@nats-io/jetstream';
import { natsJetstream } from './nats.js';
import { untilAnswered } from './transient.js';

/** Gets under way at once: enough to keep the connection busy, few enough not to flood a server. */
const IN_FLIGHT = 64;

export async function directSnapshot(nc: NatsConnection, stream: string, prefix: string, deadline: number, take: (key: string, msg: StoredMsg) => void): Promise<void> {
  const jsm = (ms: number): Promise<JetStreamManager> => natsJetstream().jetstreamManager(nc, { checkAPI: false, timeout: ms });
  const info = await untilAnswered(deadline, true, async (ms) => (await jsm(ms)).streams.info(stream, { subjects_filter: `${prefix}>` }));
  const subjects = Object.keys(info.state.subjects ?? {});
  let next = 0;
  const worker = async () => {
    while (next < subjects.length) {
      const subject = subjects[next++];
      const msg = await untilAnswered(deadline, true, async (ms) => (await jsm(ms)).direct.getMessage(stream, { last_by_subj: subject }));
      // Deleted since the list was made: nothing to take.
      if (msg !== null) take(subject.slice(prefix.length), msg);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, subjects.length) }, worker));
}
