// An archive at a URL downloaded (http or https, redirects followed) into a file beside the target,
// root's alone (mode 0600), for the runner to read once.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../../shared/errors.js';

const TIMEOUT_MS = 300_000;
const REDIRECTS = 5;

/** Downloads url to file (created new, mode 0600). */
export async function download(url: string, file: string, caFile: string | undefined, log: (line: string) => void): Promise<void> {
  let ca: Buffer | undefined;
  if (caFile !== undefined) {
    try {
      ca = fs.readFileSync(caFile);
    } catch (e) {
      throw new UserError(`cannot read ca_file ${caFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  let current = url;
  for (let hop = 0; hop <= REDIRECTS; hop++) {
    log(`GET ${current}`);
    const response = await get(current, ca);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      current = new URL(response.headers.location, current).toString();
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new UserError(`cannot download ${url}: HTTP ${status}${current !== url ? ` from ${current}` : ''}`);
    }
    await pipeline(response, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    return;
  }
  throw new UserError(`cannot download ${url}: more than ${REDIRECTS} redirects`);
}

function get(url: string, ca: Buffer | undefined): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(new UserError(`cannot download ${url}: ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    const request = url.startsWith('https:') ? https.get(url, ca ? { ca } : {}, resolve) : http.get(url, resolve);
    request.setTimeout(TIMEOUT_MS, () => request.destroy(new Error(`no answer in ${TIMEOUT_MS / 1000}s`)));
    request.on('error', onError);
  });
}
