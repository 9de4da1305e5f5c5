// The download provider: the file's status (hashed through one descriptor), the download with
// Node's own fetch (bounded in size and time, read whole into memory and hashed there: nothing
// reaches the disk before the checksum matches), and the atomic store, attribute change and
// removal of the file library, through the path's held parent directory.
import crypto from 'node:crypto';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { posixProvider } from '../lib/file/posix.js';
import type { Attributes } from '../lib/file/state.js';
import type { DownloadCurrent } from './decide.js';
import { proxyVariable } from './proxy.js';

export interface Fetched {
  content: Buffer;
  sha256: string;
}

export interface DownloadProvider {
  status(path: string): Promise<DownloadCurrent>;
  /** The body of a 200 answer at url, at most maxSize bytes, within timeoutMs. */
  fetch(url: string, maxSize: number, timeoutMs: number): Promise<Fetched>;
  store(path: string, content: Buffer, attrs: Attributes, existed: boolean): Promise<void>;
  setAttributes(path: string, attrs: Attributes): Promise<void>;
  remove(path: string): Promise<void>;
}

export function fetchProvider(context: ProviderContext): DownloadProvider {
  return {
    async status(path) {
      const found = await posixProvider.status(path, { checkEmpty: false, keepContentUpTo: 0 });
      if (found.type === 'file') return { type: 'file', sha256: found.sha256, attrs: found.attrs };
      if (found.type === 'directory') return { type: 'other', kind: 'a directory' };
      if (found.type === 'symlink') return { type: 'symlink', target: found.target };
      return found;
    },
    fetch: (url, maxSize, timeoutMs) => download(url, maxSize, timeoutMs, context),
    store: (path, content, attrs, existed) => posixProvider.store(path, content, attrs, existed ? 'file' : 'nothing', false),
    setAttributes: (path, attrs) => posixProvider.store(path, 'keep-current', attrs, 'file', false),
    remove: (path) => posixProvider.remove(path, 'file', false),
  };
}

async function download(url: string, maxSize: number, timeoutMs: number, context: ProviderContext): Promise<Fetched> {
  const proxy = proxyVariable(url, context.env);
  // Node's fetch (Node 18 to 22) reads no proxy variable: said once, and again if the fetch fails.
  if (proxy !== undefined) context.log(`warning: ${proxy} is set, but Node's fetch does not use a proxy: ${url} is fetched directly (docs/download.md, "Proxies")`);
  const failed = (why: string) => new UserError(`cannot download ${url}: ${why}${proxy !== undefined ? ` (${proxy} was not used: Node's fetch connects directly)` : ''}; nothing was written`);
  context.log(`GET ${url}`);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow', signal });
  } catch (e) {
    throw failed(reason(e, timeoutMs));
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(`HTTP ${response.status}${response.redirected ? ` from ${response.url}` : ''}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxSize) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(`it is ${declared} bytes, more than max_size (${maxSize})`);
  }
  const hash = crypto.createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxSize) {
        await reader.cancel().catch(() => undefined);
        throw failed(`it is more than max_size (${maxSize} bytes)`);
      }
      hash.update(value);
      chunks.push(Buffer.from(value));
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw failed(reason(e, timeoutMs));
  }
  return { content: Buffer.concat(chunks), sha256: hash.digest('hex') };
}

function reason(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: Error & { code?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no complete answer within ${timeoutMs / 1000}s (timeout)`;
  return err.cause?.code ?? err.cause?.message ?? err.message;
}
