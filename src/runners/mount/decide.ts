// The mount decision: the fstab entry and the mounted state, each checked against what is wanted,
// and one message for both (noop: "Would have mounted /srv; Would have added /srv to /etc/fstab").
// Pure: the decision table of docs/mount.md.
import { UserError } from '../../shared/errors.js';
import { planFstab, type FstabPlan } from './fstab.js';
import { optionsNotMet } from './live-options.js';
import type { MountProperties } from './properties.js';

/** What /proc/self/mountinfo shows mounted on the mount point (the top one). */
export interface Mounted {
  /** The source, a block device by its real path (/dev/sdb1 for /dev/disk/by-uuid/...). */
  device: string;
  fstype: string;
  /** The mount's flags and the file system's options, joined by commas. */
  options: string;
}

/** Options whose device is not what /proc/self/mountinfo shows as the source (a directory, a file; loop=/dev/loopN too). */
const DEVICE_NOT_SHOWN = ['bind', 'rbind', 'loop'];

export interface MountPlan {
  changed: boolean;
  action?: 'mount' | 'remount' | 'unmount';
  fstab: FstabPlan;
  parts: string[];
}

/**
 * `device` is the entry's device as /proc/self/mountinfo would show it (UUID=... resolved to its
 * block device); undefined when it cannot be known here, and then not compared.
 */
export function decideMount(desired: MountProperties, fstabText: string, mounted: Mounted | undefined, device?: string): MountPlan {
  const { dir } = desired;
  const fstab = planFstab(fstabText, dir, desired.entry);
  const parts: string[] = [];
  let action: MountPlan['action'];
  if (desired.ensure === 'mounted') {
    const entry = desired.entry!;
    let why: string | undefined;
    if (mounted === undefined) action = 'mount';
    else {
      // Another file system there is not changed by a remount: unmounting what may be in use is left to the user.
      if (mounted.fstype !== entry.fstype && entry.fstype !== 'auto') {
        throw new UserError(`${dir} is mounted from ${mounted.device} (${mounted.fstype}), not a ${entry.fstype} file system: unmount it first (ensure = "unmounted")`);
      }
      const compared = device !== undefined && !entry.options.split(',').some((o) => DEVICE_NOT_SHOWN.includes(o.replace(/=.*/, '')));
      if (compared && mounted.device !== device) {
        throw new UserError(`${dir} is mounted from ${mounted.device}, not from ${entry.device}: unmount it first (ensure = "unmounted")`);
      }
      const inTable = fstab.differences.find((d) => d.startsWith('options '));
      const live = optionsNotMet(entry.options, mounted.options);
      why = inTable ?? (live.length > 0 ? `mounted options ${live.join(', ')}` : undefined);
      if (why !== undefined) action = 'remount';
    }
    parts.push(action === 'mount' ? `mounted ${dir}` : action === 'remount' ? `remounted ${dir} (${why})` : `${dir} mounted`);
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
