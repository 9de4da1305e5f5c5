// The mount runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';
import type { FstabEntry } from './fstab.js';

type Described = Values<typeof description>;

export interface MountProperties {
  dir: string;
  ensure: Described['ensure'];
  /** The entry wanted in the table; undefined for ensure = absent. */
  entry?: FstabEntry;
  fstab: string;
}

export function mountProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): MountProperties {
  const v = request.values;
  const entry = v.ensure === 'absent' ? undefined : { device: v.device!, dir: request.name, fstype: v.fstype!, options: v.options, dump: String(v.dump), pass: String(v.pass) };
  return { dir: request.name, ensure: v.ensure, entry, fstab: v.fstab };
}
