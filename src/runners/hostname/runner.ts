// The hostname runner: read the kernel's name and the name file -> decide -> set each -> re-check.
// It uses only the request (no process globals), so a long-lived runner process can call it many times.
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { lockingTargets } from '../lib/target-lock.js';
import { decideHostname, hostnameMessage } from './decide.js';
import { description } from './description.js';
import { hostnameProperties } from './properties.js';
import { procfsProvider } from './provider-procfs.js';

export function hostnameRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('hostname', description, 'a host name', lockingTargets((r) => [hostnameProperties(r).file], apply));
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = hostnameProperties(request);
  const provider = procfsProvider(providerContext(request.env, request.log));
  const current = { live: props.apply ? provider.status() : undefined, file: props.persist ? await readWholeFile(props.file) : undefined };
  const plan = decideHostname(props, current);
  const diffText = plan.file?.contentChanged && current.file ? wholeFileDiff(props.file, current.file, plan.dropIn?.content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: hostnameMessage(plan, request.noop), ...diff };

  if (plan.setLive !== undefined) provider.set(plan.setLive);
  if (plan.file?.changed && plan.dropIn && current.file) await applyWholeFile(plan.dropIn, plan.file, current.file);
  return { changed: true, message: hostnameMessage(plan, false), ...diff };
}
