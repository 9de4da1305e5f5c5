// The repository's signing key as it will be written: read from the state file, from a file, or
// fetched by URL, and in every case checked to be OpenPGP public keys (and the pinned ones, when
// fingerprints are given) before apt is told to trust it. A key fetched by URL is fetched only when
// the file written last time does not hold the pinned keys.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import { download } from '../lib/download.js';
import { readKeyFile } from './openpgp.js';
import type { AptRepositoryProperties, KeySource } from './properties.js';

export interface SigningKey {
  content: Buffer;
  armored: boolean;
}

/** The keyring files it may be: `written` is what the last run left (armored .asc or binary .gpg), if any. */
export async function signingKey(props: AptRepositoryProperties, written: Buffer | undefined, log: (line: string) => void): Promise<SigningKey> {
  const source = props.key!;
  if (source.kind === 'url' && written !== undefined && holdsPinned(written, props.fingerprints)) {
    log(`the key written from ${source.url} holds the pinned fingerprints: not fetched again`);
    return { content: written, armored: readKeyFile(written, 'the written key').armored };
  }
  const content = await read(source, log);
  const what = source.kind === 'url' ? source.url : source.kind === 'file' ? source.path : 'signed_by';
  const key = readKeyFile(content, what);
  checkPinned(key.fingerprints, props.fingerprints, what);
  return { content: key.armored ? withFinalNewline(content) : content, armored: key.armored };
}

function holdsPinned(content: Buffer, pinned: string[]): boolean {
  try {
    checkPinned(readKeyFile(content, 'the written key').fingerprints, pinned, '');
    return true;
  } catch {
    return false;
  }
}

/** Every primary key must be pinned, so that a key file cannot bring one more key apt would trust. */
function checkPinned(found: string[], pinned: string[], what: string): void {
  if (pinned.length === 0) return;
  const unpinned = found.filter((f) => !pinned.includes(f));
  if (unpinned.length > 0) throw new UserError(`${what} holds key ${unpinned.join(', ')}, not the pinned ${pinned.join(', ')}: refused`);
}

async function read(source: KeySource, log: (line: string) => void): Promise<Buffer> {
  switch (source.kind) {
    case 'inline':
      return Buffer.from(source.text, 'utf8');
    case 'file':
      try {
        return fs.readFileSync(source.path);
      } catch (e) {
        throw new UserError(`cannot read signed_by ${source.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    case 'url': {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-key-'));
      try {
        const file = path.join(dir, 'key');
        await download(source.url, file, undefined, log);
        return fs.readFileSync(file);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

function withFinalNewline(content: Buffer): Buffer {
  return content.length > 0 && content[content.length - 1] !== 0x0a ? Buffer.concat([content, Buffer.from('\n')]) : content;
}
