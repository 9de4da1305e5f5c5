// The mount runner: read the table and /proc/self/mountinfo -> decide -> mount, remount or unmount
// -> write the table. It uses only the request (no process globals), so a long-lived runner process
// can call it many times.
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { lockingTargets } from '../lib/target-lock.js';
import { withSbinPath } from '../../shared/find-program.js';
import { decideWholeFile } from '../lib/whole-file/decide.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { decideMount, mountMessage } from './decide.js';
import { description } from './description.js';
import { mountProperties } from './properties.js';
import { linuxMountProvider } from './provider-linux.js';

export function mountRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('mount', description, 'a mount', lockingTargets((r) => [mountProperties(r).fstab], apply));
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = mountProperties(request);
  const provider = linuxMountProvider(providerContext(withSbinPath(request.env), request.log));
  provider.checkMountPoint(props.dir);
  const current = await readWholeFile(props.fstab);
  const text = current.type === 'file' ? current.content.toString('utf8') : '';
  const mounted = props.ensure === 'present' ? undefined : provider.status(props.dir);
  // Devices compared only when both can be known here.
  const comparable = mounted !== undefined && props.entry !== undefined && provider.shownDevice(mounted.device) !== undefined;
  const plan = decideMount(props, text, mounted, comparable ? provider.shownDevice(props.entry!.device) : undefined);
  const content = Buffer.from(plan.fstab.text);
  const diffText = plan.fstab.change !== 'none' ? wholeFileDiff(props.fstab, current, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: mountMessage(plan, request.noop), ...diff };

  // Mounted (or unmounted) before the table is written, so an entry that cannot mount is never left
  // for the next boot to stop at.
  if (plan.action !== undefined) await provider.change(props, plan.action);
  if (plan.fstab.change !== 'none') {
    // The table keeps its mode and owner.
    const keep = current.type === 'file' ? { mode: current.mode, uid: current.uid, gid: current.gid } : { mode: 0o644, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
    const desired = { path: props.fstab, ensure: 'present' as const, content, ...keep };
    await applyWholeFile(desired, decideWholeFile(desired, current), current);
  }
  return { changed: true, message: mountMessage(plan, false), ...diff };
}
