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
import { besideTarget, extractReplacing } from './extract.js';
import { checkSha256, download } from '../lib/download.js';
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
  if (request.noop || !plan.changed) return plan;

  fs.mkdirSync(path.dirname(props.target), { recursive: true, mode: 0o755 });
  const remote = /^https?:\/\//.test(props.source);
  const file = remote ? besideTarget(props.target, 'download') : props.source;
  try {
    if (remote) await download(props.source, file, props.caFile, request.log);
    await checkSha256(file, props.source, props.sha256);
    await extractReplacing(providerContext(withSbinPath(request.env), request.log), props, file);
  } finally {
    if (remote) fs.rmSync(file, { force: true });
  }
  return plan;
}
