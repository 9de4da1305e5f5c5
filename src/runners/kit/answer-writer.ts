// How a persistent runner writes its answers: the answers made in one turn of the event loop (the
// requests govern sent ahead, checked without waiting for a command) go out in one write and wake
// govern once (bench/README.md, "Round eight"); a request that waits for a command lets the turn
// end, and what is done by then goes out. Whatever is held is written when the runner exits,
// however it exits (process.exit in a runner's code, an uncaught error), but not when it is killed.
import fs from 'node:fs';
import type { PersistentResponse } from '../../shared/persistent.js';

/** The most answers held back for one write. */
const ANSWERS_PER_WRITE = 64;
/** Answers made and not written yet. */
const unsent: string[] = [];
let exitHooked = false;

/** Queues an answer to go out at the end of this turn. */
export function sendAnswer(answer: PersistentResponse): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => {
      if (unsent.length === 0) return;
      try {
        fs.writeSync(1, takeUnsent());
      } catch {
        // govern is gone
      }
    });
  }
  unsent.push(JSON.stringify(answer));
  if (unsent.length >= ANSWERS_PER_WRITE) process.stdout.write(takeUnsent());
  else if (unsent.length === 1) setImmediate(() => unsent.length > 0 && process.stdout.write(takeUnsent()));
}

/** Writes what is held, and the last answer when there is one, then calls `then`. */
export function flushAnswers(last: PersistentResponse | undefined, then: () => void): void {
  if (last !== undefined) unsent.push(JSON.stringify(last));
  if (unsent.length > 0) process.stdout.write(takeUnsent(), then);
  else then();
}

function takeUnsent(): string {
  const text = unsent.map((line) => `${line}\n`).join('');
  unsent.length = 0;
  return text;
}
