// What a service provider is: one init system's commands (provider-TOOL.ts), listed in providers.ts.
import type { ServiceStatus } from '../lib/init-system.js';
import type { ServiceAction } from './decide.js';
import type { ProviderName } from './properties.js';

/** The seed's ServiceProvider: Status plus one method per action. */
export interface ServiceProvider extends Record<ServiceAction, (service: string) => Promise<void>> {
  readonly name: ProviderName;
  status(service: string): Promise<ServiceStatus>;
}
