// The kernel_module runner: read /sys/module and the modules-load.d file -> decide -> modprobe ->
// write the file. It uses only the request (no process globals), so a long-lived runner process can
// call it many times.
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { lockingTargets } from '../lib/target-lock.js';
import { withSbinPath } from '../../shared/find-program.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { decideKernelModule, kernelModuleMessage } from './decide.js';
import { description } from './description.js';
import { kernelModuleProperties, loadFileContent } from './properties.js';
import { modprobeProvider } from './provider-modprobe.js';

/** Read by all, as the distribution's own modules-load.d files. */
const LOAD_FILE_MODE = 0o644;

export function kernelModuleRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('kernel_module', description, 'a kernel module', lockingTargets((r) => [kernelModuleProperties(r).file], apply));
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = kernelModuleProperties(request);
  const provider = modprobeProvider(providerContext(withSbinPath(request.env), request.log));
  const content = props.ensure === 'present' ? Buffer.from(loadFileContent(props.name)) : undefined;
  const loadFile = { path: props.file, ensure: props.ensure, content, mode: LOAD_FILE_MODE, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const current = { live: props.load ? provider.status(props.name) : undefined, file: await readWholeFile(props.file) };
  const plan = decideKernelModule(props, current, loadFile);
  const diffText = plan.file?.contentChanged ? wholeFileDiff(props.file, current.file, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: kernelModuleMessage(plan, request.noop), ...diff };

  // Loaded before it is listed, so a module that cannot load is never listed for the next boot.
  if (plan.modprobe !== undefined) await provider.change(props.name, plan.modprobe);
  if (plan.file?.changed) await applyWholeFile(loadFile, plan.file, current.file);
  return { changed: true, message: kernelModuleMessage(plan, false), ...diff };
}
