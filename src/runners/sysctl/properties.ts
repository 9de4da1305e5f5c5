// The sysctl runner's properties, from its arguments as the description reads them, and where a key
// lives: its /proc/sys path and its drop-in. Pure.
import path from 'node:path';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

export interface SysctlProperties {
  key: string;
  ensure: Described['ensure'];
  value?: string;
  apply: boolean;
  persist: boolean;
  /** The drop-in's path. */
  file: string;
  /** The drop-in was named (`file`), so other keys may share it. */
  shared: boolean;
}

export const DROP_IN_DIR = '/etc/sysctl.d';

export function sysctlProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): SysctlProperties {
  const v = request.values;
  return { key: request.name, ensure: v.ensure, value: v.value, apply: v.apply, persist: v.persist, file: v.file ?? path.join(DROP_IN_DIR, `90-govern-${request.name.replace(/\//g, '.')}.conf`), shared: v.file !== undefined };
}

/** sysctl(8)'s mapping: dots separate the path's components, and a "/" in the key is a "." in its component. */
export function procPath(key: string): string {
  return path.join('/proc/sys', ...key.split('.').map((component) => component.replace(/\//g, '.')));
}

/** A value as the kernel prints it: fields separated by single spaces. */
export function normalValue(value: string): string {
  return value.trim().split(/\s+/).join(' ');
}
