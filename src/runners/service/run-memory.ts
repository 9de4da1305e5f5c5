// What the service runner remembers within one govern run: which services it has (re)started. The
// apply phase and the notification phase are separate invocations, so a service started in the
// apply phase would otherwise be restarted again by a refresh in the same run. The memory is a
// marker file in GOVERN_RUN_DIR, a directory govern makes for the run and removes after it.
import fs from 'node:fs';
import path from 'node:path';

export interface RunMemory {
  startedThisRun(): boolean;
  rememberStarted(): void;
}

const NONE: RunMemory = { startedThisRun: () => false, rememberStarted: () => undefined };

/** `key` identifies the service (provider, scope, name); without GOVERN_RUN_DIR nothing is remembered. */
export function runMemory(runDir: string | undefined, key: string): RunMemory {
  if (!runDir || !path.isAbsolute(runDir) || !isDirectory(runDir)) return NONE;
  // The key holds only validated name characters, none of them "/"; the prefix keeps "." and ".." plain names.
  const marker = path.join(runDir, 'service', `started-${key}`);
  return {
    startedThisRun: () => fs.existsSync(marker),
    rememberStarted: () => {
      fs.mkdirSync(path.dirname(marker), { recursive: true });
      fs.writeFileSync(marker, '');
    },
  };
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
