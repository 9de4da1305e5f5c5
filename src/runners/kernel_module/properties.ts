// The kernel_module runner's properties, from its arguments as the description reads them, and
// where a module shows: its /sys/module directory and its modules-load.d file. Pure.
import path from 'node:path';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

export interface KernelModuleProperties {
  name: string;
  ensure: Described['ensure'];
  load: boolean;
  persist: boolean;
  /** The modules-load.d file's path. */
  file: string;
}

export const LOAD_DIR = '/etc/modules-load.d';

export function kernelModuleProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): KernelModuleProperties {
  const v = request.values;
  return { name: request.name, ensure: v.ensure, load: v.load, persist: v.persist, file: v.file ?? path.join(LOAD_DIR, `govern-${request.name}.conf`) };
}

/** The kernel names every module with underscores; modprobe takes either. */
export function sysfsName(name: string): string {
  return name.replace(/-/g, '_');
}

/** The file's whole content: one module per line, as modules-load.d(5) reads it. */
export function loadFileContent(name: string): string {
  return `# Managed by govern: kernel_module "${name}"\n${name}\n`;
}
