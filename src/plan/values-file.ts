// `govern resource --values-from FILE`: KEY=VALUE arguments read from a file, or from stdin with
// `-`, so that a secret never sits on govern's own command line, which every local user can read
// while it runs (ps, /proc/PID/cmdline). One argument a line, exactly as it would be written on the
// command line; empty lines and lines starting with # are skipped.
import { isUtf8 } from 'node:buffer';
import { UserError } from '../shared/errors.js';
import { MAX_SOURCE_BYTES, readSourceFile } from '../shared/source-file.js';
import type { GivenArgument } from './one-resource.js';

export async function readValuesFile(file: string): Promise<GivenArgument[]> {
  const name = file === '-' ? 'stdin' : file;
  const text = file === '-' ? await readStdin() : readSourceFile(file);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  // A carriage return would end the value (a password hash that then matches nothing), unseen.
  const crlf = lines.flatMap((line, i) => (line.endsWith('\r') ? [{ file: name, line: i + 1, message: 'the line ends with a carriage return (CRLF line ends?): write the file with LF line ends' }] : []));
  if (crlf.length > 0) throw new UserError(crlf);
  return lines.flatMap((line, i) => (line === '' || line.startsWith('#') ? [] : [{ text: line, at: { file: name, line: i + 1 } }]));
}

/** Whatever stdin is (a pipe, a socket, a file, a terminal), read to its end, as UTF-8 text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > MAX_SOURCE_BYTES) throw new UserError({ file: 'stdin', message: `larger than ${MAX_SOURCE_BYTES / 1024 / 1024} MiB` });
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError({ file: 'stdin', message: `cannot read: ${(e as Error).message}` });
  }
  const bytes = Buffer.concat(chunks, total);
  if (!isUtf8(bytes)) throw new UserError({ file: 'stdin', message: 'not valid UTF-8' });
  return bytes.toString('utf8');
}
