// What is mounted, read in /proc/self/mountinfo, and mount(8) / umount(8) to change it. Nothing else.
import fs from 'node:fs';
import { act, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { Mounted } from './decide.js';
import { unescapeField } from './fstab.js';
import type { MountProperties } from './properties.js';

const MOUNT_TIMEOUT_MS = 300_000;

/** The top file system mounted on dir, if any. */
export function readMounted(dir: string): Mounted | undefined {
  let found: Mounted | undefined;
  for (const line of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
    const f = line.split(' ');
    const sep = f.indexOf('-', 6);
    if (sep < 0 || unescapeField(f[4]) !== dir) continue;
    found = { device: unescapeField(f[sep + 2] ?? ''), fstype: f[sep + 1], options: `${f[5]},${f[sep + 3] ?? ''}` };
  }
  return found;
}

export async function changeMount(context: ProviderContext, props: MountProperties, action: 'mount' | 'remount' | 'unmount'): Promise<void> {
  const { dir, entry } = props;
  if (action === 'unmount') {
    await act(context, ['umount', '--', dir], { timeoutMs: MOUNT_TIMEOUT_MS });
  } else if (action === 'remount') {
    await act(context, ['mount', '-o', `remount,${entry!.options}`, '--', dir], { timeoutMs: MOUNT_TIMEOUT_MS });
  } else {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UserError(`cannot mount on ${dir}: not a directory (a file resource with ensure = "directory" makes it)`);
    }
    // The entry's values given on the command line: the table written may be another than /etc/fstab.
    await act(context, ['mount', '-t', entry!.fstype, '-o', entry!.options, '--', entry!.device, dir], { timeoutMs: MOUNT_TIMEOUT_MS });
  }
  const now = readMounted(dir);
  if ((action === 'unmount') !== (now === undefined)) throw new UserError(`${action === 'unmount' ? 'umount' : 'mount'} succeeded, yet ${dir} is ${now ? 'still mounted' : 'not mounted'}`);
}
