// The sysctl provider: a kernel parameter's live value, read and written in /proc/sys as sysctl(8)
// does (one write of the whole value). Nothing else: it runs no command.
import fs from 'node:fs';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { normalValue, procPath } from './properties.js';

export interface SysctlProvider {
  /** The live value; undefined when the kernel has no such key. */
  status(key: string): string | undefined;
  /** Writes the value, then checks the kernel kept it (it may refuse or round a value). */
  set(key: string, value: string): void;
}

/** The context is every provider's (docs/adding-a-runner.md); /proc/sys needs none of it. */
export function procfsProvider(_context: ProviderContext): SysctlProvider {
  return { status: readLive, set: writeLive };
}

/** The live value; undefined when the kernel has no such key. */
function readLive(key: string): string | undefined {
  try {
    return fs.readFileSync(procPath(key), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UserError(`cannot read ${procPath(key)}: ${code ?? (e as Error).message}`);
  }
}

/** Writes the value, then checks the kernel kept it (it may refuse or round a value). */
function writeLive(key: string, value: string): void {
  const file = procPath(key);
  try {
    fs.writeFileSync(file, `${value}\n`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EINVAL' ? 'the kernel refused the value' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'not writable here (read-only, or a container without the right)' : (code ?? (e as Error).message);
    throw new UserError(`cannot set ${key} to ${JSON.stringify(value)}: ${why} (${file})`);
  }
  const now = readLive(key);
  if (now === undefined || normalValue(now) !== value) {
    throw new UserError(`${key} is ${JSON.stringify(normalValue(now ?? ''))} after writing ${JSON.stringify(value)}: the kernel did not keep the value`);
  }
}
