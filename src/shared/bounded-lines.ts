// Splits a stream into lines, as readline does, but refuses a line longer than a bound: a process
// that writes without ever ending its line must not grow govern's memory until it crashes.
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

export interface LineHandlers {
  line(text: string): void;
  /** The line under way passed `maxChars`; nothing more is read from the stream. */
  overflow(): void;
  /** The stream ended (a last line without a newline has been handed over first). */
  end?(): void;
}

export function readBoundedLines(stream: Readable, maxChars: number, handlers: LineHandlers): void {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let stopped = false;
  const take = (text: string) => {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const line = partial + text.slice(start, nl);
      partial = '';
      start = nl + 1;
      handlers.line(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    partial += text.slice(start);
    if (partial.length > maxChars) {
      stopped = true;
      partial = '';
      stream.destroy();
      handlers.overflow();
    }
  };
  stream.on('data', (chunk: Buffer) => {
    if (!stopped) take(decoder.write(chunk));
  });
  stream.on('end', () => {
    if (stopped) return;
    take(decoder.end());
    if (partial !== '' && !stopped) handlers.line(partial);
    partial = '';
    handlers.end?.();
  });
  stream.on('error', () => undefined); // a destroyed pipe: the process's exit says what happened
}
