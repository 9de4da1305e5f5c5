// hcl2json parses about a megabyte a second, on one thread. When the state files the parse cache
// does not know are large (a first run of a large tree), they are parsed on two threads: this one
// and a worker thread with its own hcl2json, each taking the next file, largest first. A worker
// costs its start and its own WebAssembly start and warm-up (about 0.5 s of CPU, and 35 MiB), and
// pays only above about a megabyte (bench/README.md, "Round two, the last levers").
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { UserError, type Problem } from '../shared/errors.js';
import { parseHcl } from './hcl.js';

/** Below this many bytes to parse, a worker costs more than it saves. */
export const WORKER_MIN_BYTES = 1024 * 1024;

export interface ParseJob {
  id: number;
  file: string;
  text: string;
}

/** What became of one state file: hcl2json's output, or the syntax errors found in it. */
export type ParseOutcome = { parsed: Record<string, unknown> } | { problems: Problem[] };

export type ParseAnswer = { id: number } & (ParseOutcome | { error: string });

export interface ParseStats {
  /** Files parsed by the worker thread (0 when none was started). */
  inWorker: number;
}

/** Parses each text (file names it in errors); an error that is not the text's (a bug) is thrown. */
export async function parseTexts(
  texts: { file: string; text: string }[],
  workerMinBytes = WORKER_MIN_BYTES,
  stats: ParseStats = { inWorker: 0 },
): Promise<ParseOutcome[]> {
  const outcomes: ParseOutcome[] = new Array(texts.length);
  // Largest first: the two threads then finish close together.
  const order = texts.map((_, i) => i).sort((a, b) => texts[b].text.length - texts[a].text.length);
  let next = 0;
  const take = (): number | undefined => (next < order.length ? order[next++] : undefined);
  const here = async (): Promise<void> => {
    for (let id = take(); id !== undefined; id = take()) {
      outcomes[id] = await parseHere(texts[id]);
      // hcl2json answers without returning to the event loop: let the worker's answer in.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const bytes = texts.reduce((sum, t) => sum + t.text.length, 0);
  const work = [here()];
  if (texts.length > 1 && bytes >= workerMinBytes && cores() > 1) work.push(inWorker(texts, take, outcomes, stats));
  await Promise.all(work);
  return outcomes;
}

/** One text parsed on this thread: its syntax errors are its outcome, any other error is thrown. */
export async function parseHere(text: { file: string; text: string }): Promise<ParseOutcome> {
  try {
    return { parsed: await parseHcl(text.file, text.text) };
  } catch (e) {
    if (e instanceof UserError) return { problems: e.problems };
    throw e;
  }
}

/** Feeds the worker one file at a time until none is left; a worker that fails leaves its file to this thread. */
function inWorker(texts: { file: string; text: string }[], take: () => number | undefined, outcomes: ParseOutcome[], stats: ParseStats): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // scripts/bundle.js bundles the worker beside the core (dist/bundle/), tsc writes it beside this module.
    const worker = new Worker(path.join(__dirname, 'parse-worker.js'));
    let current: number | undefined;
    let done = false;
    const finish = (then: () => void) => {
      if (done) return;
      done = true;
      void worker.terminate();
      then();
    };
    const send = () => {
      current = take();
      if (current === undefined) finish(resolve);
      else worker.postMessage({ id: current, file: texts[current].file, text: texts[current].text } satisfies ParseJob);
    };
    worker.on('message', (answer: ParseAnswer) => {
      if ('error' in answer) return finish(() => reject(new Error(`parsing ${texts[answer.id].file} in a worker thread: ${answer.error}`)));
      outcomes[answer.id] = 'parsed' in answer ? { parsed: answer.parsed } : { problems: answer.problems };
      stats.inWorker++;
      send();
    });
    const fallBack = () =>
      finish(() => {
        if (current === undefined) return resolve();
        const left = current;
        parseHere(texts[left]).then((outcome) => {
          outcomes[left] = outcome;
          resolve();
        }, reject);
      });
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
    send();
  });
}

function cores(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}
