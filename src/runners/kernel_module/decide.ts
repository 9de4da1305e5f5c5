// The kernel_module decision: the module's live state and its modules-load.d file, each checked
// against what is wanted, and one message for both (noop: "Would have loaded module x; Would have
// created FILE"). Pure: the decision table of docs/kernel_module.md.
import { UserError } from '../../shared/errors.js';
import { decideWholeFile, type WholeFileCurrent, type WholeFileDesired, type WholeFilePlan } from '../lib/whole-file/decide.js';
import type { KernelModuleProperties } from './properties.js';

/** What /sys/module shows: not there, loaded from a file, or built into the kernel. */
export type ModuleState = 'absent' | 'loaded' | 'builtin';

export interface KernelModuleCurrent {
  /** Undefined when not looked at (load = false). */
  live?: ModuleState;
  file: WholeFileCurrent;
}

export interface KernelModulePlan {
  changed: boolean;
  /** modprobe to run: load, or unload (-r). */
  modprobe?: 'load' | 'unload';
  file?: WholeFilePlan;
  /** The parts of the message, each lower case. */
  parts: string[];
}

export function decideKernelModule(desired: KernelModuleProperties, current: KernelModuleCurrent, loadFile: WholeFileDesired): KernelModulePlan {
  const parts: string[] = [];
  let changed = false;
  let modprobe: KernelModulePlan['modprobe'];
  const { name } = desired;
  if (desired.load) {
    const live = current.live ?? 'absent';
    if (desired.ensure === 'present') {
      if (live === 'absent') {
        modprobe = 'load';
        parts.push(`loaded module ${name}`);
      } else parts.push(live === 'builtin' ? `module ${name} built into the kernel` : `module ${name} loaded`);
    } else if (live === 'builtin') {
      throw new UserError(`module ${name} is built into the kernel: it cannot be unloaded (load = false leaves it, and removes only the file)`);
    } else if (live === 'loaded') {
      modprobe = 'unload';
      parts.push(`unloaded module ${name}`);
    } else parts.push(`module ${name} not loaded`);
    changed = modprobe !== undefined;
  }
  let file: WholeFilePlan | undefined;
  if (desired.persist || desired.ensure === 'absent') {
    file = decideWholeFile(loadFile, current.file);
    changed ||= file.changed;
    parts.push(file.changed || desired.ensure === 'absent' ? file.summary : `listed in ${loadFile.path}`);
  }
  return { changed, modprobe, file, parts };
}

/** The parts joined by "; ", each "Would have ..." in noop mode when it is a change. */
export function kernelModuleMessage(plan: KernelModulePlan, noop: boolean): string {
  if (!noop || !plan.changed) return plan.parts.join('; ');
  return plan.parts.map((p) => (/^(loaded|unloaded|created|changed|removed) /.test(p) ? `Would have ${p}` : p)).join('; ');
}
