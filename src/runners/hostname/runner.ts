// The hostname runner: read /etc/hostname -> decide -> write -> re-check, from the request only.
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { decideHostname } from './decide.js';
import { description } from './description.js';

export function hostnameRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('hostname', description, 'a host name', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const file = request.values.file;
  const content = Buffer.from(`${request.name}\n`);
  const desired = { path: file, ensure: 'present' as const, content, mode: 0o644, uid: 0, gid: 0 };
  const current = await readWholeFile(file);
  const { plan, message } = decideHostname(desired, current);
  const diffText = plan.contentChanged ? wholeFileDiff(file, current, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: message(request.noop), ...diff };
  await applyWholeFile(desired, plan, current);
  return { changed: true, message: message(false), ...diff };
}
