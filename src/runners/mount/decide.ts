// The mount decision: the fstab entry and the mounted state, each checked against what is wanted,
// and one message for both (noop: "Would have mounted /srv; Would have added /srv to /etc/fstab").
// Pure: the decision table of docs/mount.md.
import { UserError } from '../../shared/errors.js';
import { planFstab, type FstabPlan } from './fstab.js';
import type { MountProperties } from './properties.js';

/** What /proc/self/mountinfo shows mounted on the mount point (the top one). */
export interface Mounted {
  device: string;
  fstype: string;
  options: string;
}

export interface MountPlan {
  changed: boolean;
  action?: 'mount' | 'remount' | 'unmount';
  fstab: FstabPlan;
  parts: string[];
}

export function decideMount(desired: MountProperties, fstabText: string, mounted: Mounted | undefined): MountPlan {
  const { dir } = desired;
  const fstab = planFstab(fstabText, dir, desired.entry);
  const parts: string[] = [];
  let action: MountPlan['action'];
  if (desired.ensure === 'mounted') {
    const entry = desired.entry!;
    if (mounted === undefined) action = 'mount';
    else if (mounted.fstype !== entry.fstype && entry.fstype !== 'auto') {
      throw new UserError(`${dir} is mounted from ${mounted.device} (${mounted.fstype}), not a ${entry.fstype} file system: unmount it first (ensure = "unmounted")`);
    } else if (fstab.differences.some((d) => d.startsWith('options '))) action = 'remount';
    parts.push(action === 'mount' ? `mounted ${dir}` : action === 'remount' ? `remounted ${dir} (${fstab.differences.find((d) => d.startsWith('options '))})` : `${dir} mounted`);
  } else if (desired.ensure === 'unmounted' || desired.ensure === 'absent') {
    if (mounted !== undefined) action = 'unmount';
    parts.push(action ? `unmounted ${dir}` : `${dir} not mounted`);
  }
  const table = desired.fstab;
  if (fstab.change === 'added') parts.push(`added ${dir} to ${table}`);
  else if (fstab.change === 'changed') parts.push(`changed ${dir} in ${table} (${fstab.differences.join(', ')})`);
  else if (fstab.change === 'removed') parts.push(`removed ${dir} from ${table}`);
  else parts.push(desired.entry ? `${dir} in ${table}` : `${dir} not in ${table}`);
  return { changed: action !== undefined || fstab.change !== 'none', action, fstab, parts };
}

/** The parts joined by "; ", each "Would have ..." in noop mode when it is a change. */
export function mountMessage(plan: MountPlan, noop: boolean): string {
  if (!noop || !plan.changed) return plan.parts.join('; ');
  return plan.parts.map((p) => (/^(mounted|remounted|unmounted|added|changed|removed) /.test(p) ? `Would have ${p}` : p)).join('; ');
}
