// A worker thread of the parse pool (parse-pool.ts): its own hcl2json, one state file per message.
import { parentPort } from 'node:worker_threads';
import { parseHere, type ParseAnswer, type ParseJob } from './parse-pool.js';

parentPort?.on('message', (job: ParseJob) => {
  const post = (answer: ParseAnswer) => parentPort!.postMessage(answer);
  parseHere(job).then(
    (outcome) => post({ id: job.id, ...outcome }),
    (e: unknown) => post({ id: job.id, error: String((e as Error)?.stack ?? e) }),
  );
});
