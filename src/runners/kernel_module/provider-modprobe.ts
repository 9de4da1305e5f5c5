// The kernel_module provider: a module's live state, read in /sys/module (a directory for every
// module the kernel has, an initstate file for those loaded from a file), and changed with modprobe.
// Nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { findExecutable, pathDirs } from '../../shared/find-program.js';
import type { ModuleState } from './decide.js';
import { sysfsName } from './properties.js';

const SYS_MODULE = '/sys/module';
const MODPROBE_TIMEOUT_MS = 120_000;

export interface KernelModuleProvider {
  status(name: string): ModuleState;
  /** modprobe NAME, or modprobe -r NAME; then checks /sys/module shows what was asked. */
  change(name: string, what: 'load' | 'unload'): Promise<void>;
}

export function modprobeProvider(context: ProviderContext): KernelModuleProvider {
  return {
    status: readModuleState,
    async change(name, what) {
      if (findExecutable('modprobe', pathDirs(context.env)) === undefined) {
        throw new UserError(`cannot ${what} module ${name}: modprobe not found (kmod is not installed, or this machine cannot load modules); load = false manages the file alone`);
      }
      await act(context, ['modprobe', ...(what === 'unload' ? ['-r'] : []), '--', name], { timeoutMs: MODPROBE_TIMEOUT_MS });
      const now = readModuleState(name);
      if ((what === 'load') !== (now !== 'absent')) throw new UserError(`modprobe ${what === 'unload' ? '-r ' : ''}${name} succeeded, yet ${SYS_MODULE} shows the module ${now === 'absent' ? 'absent' : 'still there'}`);
    },
  };
}

function readModuleState(name: string): ModuleState {
  const dir = path.join(SYS_MODULE, sysfsName(name));
  if (!fs.existsSync(dir)) return 'absent';
  // A built-in module has a directory (for its parameters) but no initstate.
  return fs.existsSync(path.join(dir, 'initstate')) ? 'loaded' : 'builtin';
}
