// Where systemd reads the administrator's units, for each manager: the system's, or the calling
// user's (`systemd --user`). The unit, cron and service runners all write or reload units there.
import os from 'node:os';
import path from 'node:path';

/** Which systemd manager: the system's, or the calling user's. */
export type SystemdScope = 'system' | 'user';

/** Where systemd reads the administrator's units: /etc/systemd/system, or the user's own directory (systemd.unit(5)). */
export function unitDirectory(scope: SystemdScope, env: NodeJS.ProcessEnv): string {
  if (scope === 'system') return '/etc/systemd/system';
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(config, 'systemd', 'user');
}
