// The hostname provider: the kernel's name, read and written in /proc/sys/kernel/hostname as
// sethostname(2) sets it (what `hostname NAME` and systemd-hostnamed do). It runs no command.
import fs from 'node:fs';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';

export const KERNEL_NAME = '/proc/sys/kernel/hostname';

export interface HostnameProvider {
  /** The kernel's name now. */
  status(): string;
  /** Gives the kernel the name, then checks it kept it. */
  set(name: string): void;
}

/** The context is every provider's (docs/adding-a-runner.md); /proc/sys needs none of it. */
export function procfsProvider(_context: ProviderContext): HostnameProvider {
  return { status: readName, set: writeName };
}

function readName(): string {
  try {
    return fs.readFileSync(KERNEL_NAME, 'utf8').trim();
  } catch (e) {
    throw new UserError(`cannot read ${KERNEL_NAME}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function writeName(name: string): void {
  try {
    fs.writeFileSync(KERNEL_NAME, name);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'not allowed here (not root, or a container without CAP_SYS_ADMIN in its own UTS namespace)' : (code ?? (e as Error).message);
    throw new UserError(`cannot set the kernel's name to ${name}: ${why} (${KERNEL_NAME})`);
  }
  const now = readName();
  if (now !== name) throw new UserError(`the kernel's name is ${now} after setting ${name}`);
}
