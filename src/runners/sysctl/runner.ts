// The sysctl runner: read the live value and the drop-in -> decide -> write each -> re-check. It
// uses only the request (no process globals), so a long-lived runner process can call it many times.
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { lockingTargets } from '../lib/target-lock.js';
import { decideSysctl, sysctlMessage } from './decide.js';
import { description } from './description.js';
import { withKey } from './drop-in.js';
import { sysctlProperties } from './properties.js';
import { procfsProvider } from './provider-procfs.js';

/** The drop-in is read by all, as the distribution's own. */
const DROP_IN_MODE = 0o644;

export function sysctlRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('sysctl', description, 'a sysctl', lockingTargets((r) => [sysctlProperties(r).file], apply));
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = sysctlProperties(request);
  const provider = procfsProvider(providerContext(request.env, request.log));
  const current = { live: props.ensure === 'present' && props.apply ? provider.status(props.key) : undefined, file: await readWholeFile(props.file) };
  // The key's line set in (or removed from) the file as it is: other resources' keys stay.
  const text = withKey(current.file.type === 'file' ? current.file.content.toString('utf8') : undefined, props.key, props.ensure === 'present' ? props.value : undefined, props.shared);
  const content = text === undefined ? undefined : Buffer.from(text);
  const dropIn = { path: props.file, ensure: content === undefined ? ('absent' as const) : ('present' as const), content, mode: DROP_IN_MODE, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const plan = decideSysctl(props, current, dropIn);
  const diffText = plan.file?.contentChanged ? wholeFileDiff(props.file, current.file, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: sysctlMessage(plan, request.noop), ...diff };

  if (plan.setLive !== undefined) provider.set(props.key, plan.setLive);
  if (plan.file?.changed) await applyWholeFile(dropIn, plan.file, current.file);
  return { changed: true, message: sysctlMessage(plan, false), ...diff };
}
