// What every init system's commands share, for the service runner's providers and for the runners
// that start what they write (cron's timers): the status they answer, "no such service", the time limit.
import { UserError } from '../../shared/errors.js';

/** What an init system says of a service: running now, started at boot. */
export interface ServiceStatus {
  running: boolean;
  enabled: boolean;
}

/** The init system knows no such service (no unit file, no init script): what a package not yet installed gives. */
export class ServiceNotFound extends UserError {}

/** A service command that hangs is killed after this long (systemd's own start timeout is 90s). */
export const COMMAND_TIMEOUT_MS = 300_000;
