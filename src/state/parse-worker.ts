// A worker thread of the parse pool (parse-pool.ts): its own hcl2json, one state file per message.
import { parentPort } from 'node:worker_threads';
import { UserError } from '../shared/errors.js';
import { parseHcl } from './hcl.js';
import type { ParseAnswer, ParseJob } from './parse-pool.js';

parentPort?.on('message', (job: ParseJob) => {
  const post = (answer: ParseAnswer) => parentPort!.postMessage(answer);
  parseHcl(job.file, job.text).then(
    (parsed) => post({ id: job.id, parsed }),
    (e: unknown) => post(e instanceof UserError ? { id: job.id, problems: e.problems } : { id: job.id, error: String((e as Error)?.stack ?? e) }),
  );
});
