// The mount provider: what is mounted, read in /proc/self/mountinfo, and mount(8) / umount(8) to
// change it. Nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { Mounted } from './decide.js';
import { unescapeField } from './fstab.js';
import { optionsNotMet } from './live-options.js';
import type { MountProperties } from './properties.js';

const MOUNT_TIMEOUT_MS = 300_000;

export interface MountProvider {
  /** Refuses a mount point reached through a symbolic link. */
  checkMountPoint(dir: string): void;
  /** The top file system mounted on dir, if any. */
  status(dir: string): Mounted | undefined;
  /** A device as the kernel shows it, or undefined when it cannot be known here. */
  shownDevice(device: string): string | undefined;
  /** Mounts, remounts or unmounts dir as the entry says, then checks the kernel shows it so. */
  change(props: MountProperties, action: 'mount' | 'remount' | 'unmount'): Promise<void>;
}

export function linuxMountProvider(context: ProviderContext): MountProvider {
  return { checkMountPoint, status: readMounted, shownDevice, change: (props, action) => changeMount(context, props, action) };
}

/** The top file system mounted on dir, if any. */
function readMounted(dir: string): Mounted | undefined {
  let found: Mounted | undefined;
  for (const line of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
    const f = line.split(' ');
    const sep = f.indexOf('-', 6);
    if (sep < 0 || unescapeField(f[4]) !== dir) continue;
    const source = unescapeField(f[sep + 2] ?? '');
    found = { device: shownDevice(source) ?? source, fstype: f[sep + 1], options: `${f[5]},${f[sep + 3] ?? ''}` };
  }
  return found;
}

/** udev's links to block devices by the tags fstab(5) accepts. */
const TAG_DIRECTORIES: Record<string, string> = { UUID: 'by-uuid', LABEL: 'by-label', PARTUUID: 'by-partuuid', PARTLABEL: 'by-partlabel' };

/**
 * A device as /proc/self/mountinfo shows it: a tag (UUID=...) or a link under /dev resolved to the
 * block device; other sources (tmpfs, server:/export) as they are. Undefined when a tag or a /dev
 * path names no device here (the kernel's /dev/root), or for an image file (shown as the loop
 * device mounted from it): then it cannot be compared.
 */
function shownDevice(device: string): string | undefined {
  const tag = /^([A-Z]+)=(.+)$/.exec(device);
  if (tag !== null && TAG_DIRECTORIES[tag[1]] !== undefined) {
    const link = path.join('/dev/disk', TAG_DIRECTORIES[tag[1]], tag[2].replace(/\//g, '\\x2f'));
    return realPath(link);
  }
  if (device.startsWith('/dev/')) return realPath(device);
  // A file system image: mount(8) sets up a loop device for it, which is what the kernel shows.
  return fs.statSync(device, { throwIfNoEntry: false })?.isFile() ? undefined : device;
}

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/**
 * A mount point reached through a symbolic link is refused: the kernel mounts on the link's target,
 * and /proc/self/mountinfo names that, so the mount point given would never be found mounted (each
 * run would mount again over the last).
 */
function checkMountPoint(dir: string): void {
  let existing = dir;
  while (existing !== '/' && fs.lstatSync(existing, { throwIfNoEntry: false }) === undefined) existing = path.dirname(existing);
  const real = realPath(existing);
  if (real === existing) return;
  if (real === undefined) throw new UserError(`${dir} is reached through a symbolic link that leads nowhere (${existing})`);
  const rest = path.relative(existing, dir);
  throw new UserError(`${dir} is reached through a symbolic link (${existing} is ${real}): name the mount point by its real path, ${path.join(real, rest)}`);
}

async function changeMount(context: ProviderContext, props: MountProperties, action: 'mount' | 'remount' | 'unmount'): Promise<void> {
  const { dir, entry } = props;
  if (action === 'unmount') {
    await act(context, ['umount', '--', dir], { timeoutMs: MOUNT_TIMEOUT_MS });
  } else if (action === 'remount') {
    // mount(8) keeps the flags of the mounted file system that -o does not name: an entry without
    // ro means rw, so it is said (a file system made read-only by hand is made writable again).
    const flags = entry!.options.split(',');
    const rw = flags.includes('ro') || flags.includes('rw') ? '' : 'rw,';
    await act(context, ['mount', '-o', `remount,${rw}${entry!.options}`, '--', dir], { timeoutMs: MOUNT_TIMEOUT_MS });
  } else {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UserError(`cannot mount on ${dir}: not a directory (a file resource with ensure = "directory" makes it)`);
    }
    // The entry's values given on the command line: the table written may be another than /etc/fstab.
    await act(context, ['mount', '-t', entry!.fstype, '-o', entry!.options, '--', entry!.device, dir], { timeoutMs: MOUNT_TIMEOUT_MS });
  }
  const now = readMounted(dir);
  if ((action === 'unmount') !== (now === undefined)) throw new UserError(`${action === 'unmount' ? 'umount' : 'mount'} succeeded, yet ${dir} is ${now ? 'still mounted' : 'not mounted'}`);
  // A file system that keeps an option through a remount would be remounted in every run.
  const unmet = action === 'remount' && now !== undefined ? optionsNotMet(entry!.options, now.options) : [];
  if (unmet.length > 0) throw new UserError(`mount -o remount succeeded, yet ${dir} still has other options (${unmet.join(', ')}): unmount it and mount it again`);
}
