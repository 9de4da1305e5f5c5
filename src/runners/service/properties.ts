// The service runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;
export type RunState = Described['ensure'];
export type ProviderName = NonNullable<Described['provider']>;
export type Scope = Described['scope'];

export interface ServiceProperties {
  /** The service (systemd unit or /etc/init.d script) name. */
  name: string;
  /** Phase 1: the running state (`ensure`, or govern's README spelling `state`). */
  ensure: RunState;
  /** Phase 2: start at boot. Undefined leaves the boot configuration alone. */
  enable?: boolean;
  /** Undefined: chosen from the host (systemd when it is the init system). */
  provider?: ProviderName;
  /** systemd only: the system manager, or the calling user's manager (`systemctl --user`). */
  scope: Scope;
}

export function serviceProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): ServiceProperties {
  const { ensure, state, enable, provider, scope } = request.values;
  return { name: request.name, ensure: state ?? ensure, enable, provider, scope };
}
