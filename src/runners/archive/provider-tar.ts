// The archive provider: the target as it is (its marker, and `creates`), and an archive fetched or
// copied, held open, checked (checksum, entries) and extracted with tar (unzip for a zip) beside
// the target, then renamed into place (extract.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { ProviderContext } from '../../shared/command-runner.js';
import { download } from '../lib/download.js';
import type { ArchiveCurrent } from './decide.js';
import { besideTarget, checkEntries, extractReplacing } from './extract.js';
import { checkHeldSha256, copySource, holdFile, type HeldSource } from './held-source.js';
import { MARKER, markedSha256, type ArchiveProperties } from './properties.js';

export interface ArchiveProvider {
  status(p: ArchiveProperties): ArchiveCurrent;
  /** In noop mode, what can be known without changing anything: a local source's checksum and entries. */
  check(p: ArchiveProperties): Promise<void>;
  /** Fetched (or a local source copied), checked, extracted beside the target and renamed into place. */
  install(p: ArchiveProperties): Promise<void>;
}

export function tarProvider(context: ProviderContext): ArchiveProvider {
  return {
    status: readCurrent,
    async check(p) {
      if (!isRemote(p)) await withHeld(p.source, p, (held) => checkEntries(context, p, held.path));
    },
    async install(p) {
      fs.mkdirSync(path.dirname(p.target), { recursive: true, mode: 0o755 });
      // Read once: a download, or a copy of a local source, is the one file checked, listed and extracted.
      const file = besideTarget(p.target, 'download');
      try {
        if (isRemote(p)) await download(p.source, file, p.caFile, context.log);
        else copySource(p.source, file);
        await withHeld(file, p, (held) => extractReplacing(context, p, held.path));
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
  };
}

function isRemote(p: ArchiveProperties): boolean {
  return /^https?:\/\//.test(p.source);
}

function readCurrent(p: ArchiveProperties): ArchiveCurrent {
  const createsExists = p.creates !== undefined ? fs.lstatSync(p.creates, { throwIfNoEntry: false }) !== undefined : undefined;
  const st = fs.lstatSync(p.target, { throwIfNoEntry: false });
  if (st === undefined) return { createsExists, target: 'absent' };
  if (!st.isDirectory()) return { createsExists, target: 'other' };
  let marker: string | undefined;
  try {
    marker = fs.readFileSync(path.join(p.target, MARKER), 'utf8');
  } catch {
    // no marker: extracted by something else
  }
  const marked = markedSha256(marker);
  return { createsExists, target: 'directory', marked, ...(marked === undefined ? { empty: fs.readdirSync(p.target).length === 0 } : {}) };
}

/** `file` held open, its checksum checked, for `use`. */
async function withHeld(file: string, props: ArchiveProperties, use: (held: HeldSource) => Promise<void>): Promise<void> {
  const held = holdFile(file, props.source);
  try {
    checkHeldSha256(held, props.source, props.sha256);
    await use(held);
  } finally {
    held.close();
  }
}
