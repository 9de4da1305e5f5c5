// The archive runner: creates and the target's marker -> decide -> fetch -> sha256 -> extract beside
// -> rename into place. It uses only the request (no process globals), so a long-lived runner process
// can call it many times.
import fs from 'node:fs';
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { withSbinPath } from '../../shared/find-program.js';
import { decideArchive, type ArchiveCurrent } from './decide.js';
import { description } from './description.js';
import { besideTarget, checkEntries, extractReplacing } from './extract.js';
import { download } from '../lib/download.js';
import { checkHeldSha256, copySource, holdFile, type HeldSource } from './held-source.js';
import { archiveProperties, MARKER, markedSha256, type ArchiveProperties } from './properties.js';

export function archiveRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('archive', description, 'an archive', apply);
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

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = archiveProperties(request);
  const plan = decideArchive(props, readCurrent(props), request.noop);
  if (!plan.changed) return plan;
  const context = providerContext(withSbinPath(request.env), request.log);
  const remote = /^https?:\/\//.test(props.source);
  if (request.noop) {
    // What can be known without changing anything is checked as the run checks it: a local source's checksum and entries.
    if (!remote) await withHeld(props.source, props, (held) => checkEntries(context, props, held.path));
    return plan;
  }
  fs.mkdirSync(path.dirname(props.target), { recursive: true, mode: 0o755 });
  // Read once: a download, or a copy of a local source, is the one file checked, listed and extracted.
  const file = besideTarget(props.target, 'download');
  try {
    if (remote) await download(props.source, file, props.caFile, request.log);
    else copySource(props.source, file);
    await withHeld(file, props, (held) => extractReplacing(context, props, held.path));
  } finally {
    fs.rmSync(file, { force: true });
  }
  return plan;
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
