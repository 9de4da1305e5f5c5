// What a service provider is: one init system's commands (provider-TOOL.ts), listed in providers.ts.
import { UserError } from '../../shared/errors.js';
import type { ServiceAction, ServiceStatus } from './decide.js';
import type { ProviderName } from './properties.js';

/** The seed's ServiceProvider: Status plus one method per action. */
export interface ServiceProvider extends Record<ServiceAction, (service: string) => Promise<void>> {
  readonly name: ProviderName;
  status(service: string): Promise<ServiceStatus>;
}

/** The init system knows no such service (no unit file, no init script): what a package not yet installed gives. */
export class ServiceNotFound extends UserError {}

/** A service command that hangs is killed after this long (systemd's own start timeout is 90s). */
export const COMMAND_TIMEOUT_MS = 300_000;
