// The service resource's arguments, read and validated before any command runs.
import type { Params } from '../../shared/protocol.js';
import { checkChars, SERVICE_NAME, ValidationError } from '../../shared/validate.js';

export type RunState = 'running' | 'stopped';
export type ProviderName = 'systemd' | 'sysv';
export type Scope = 'system' | 'user';

export interface ServiceProperties {
  /** The service (systemd unit or /etc/init.d script) name. */
  name: string;
  /** Phase 1: the running state (`ensure`, or govern's README spelling `state`). Default running. */
  ensure: RunState;
  /** Phase 2: start at boot. Undefined leaves the boot configuration alone. */
  enable?: boolean;
  /** Undefined: chosen from the host (systemd when /run/systemd/system exists). */
  provider?: ProviderName;
  /** systemd only: the system manager, or the calling user's manager (`systemctl --user`). */
  scope: Scope;
}

const KNOWN = ['ensure', 'state', 'enable', 'provider', 'scope'];
const RUN_STATES: readonly RunState[] = ['running', 'stopped'];
const PROVIDERS: readonly ProviderName[] = ['systemd', 'sysv'];
const SCOPES: readonly Scope[] = ['system', 'user'];

export function parseProperties(name: string, params: Params): ServiceProperties {
  checkChars(SERVICE_NAME, name);
  for (const key of params.keys()) {
    if (!KNOWN.includes(key)) {
      const hint = key === 'enabled' ? ' (did you mean enable?)' : '';
      throw new ValidationError(`unknown property ${key}${hint}: the service runner takes ${KNOWN.join(', ')}`);
    }
  }
  const properties: ServiceProperties = {
    name,
    ensure: parseEnsure(params),
    enable: parseEnable(params.get('enable')),
    provider: oneOf('provider', params.get('provider'), PROVIDERS),
    scope: oneOf('scope', params.get('scope'), SCOPES) ?? 'system',
  };
  if (properties.scope === 'user' && properties.provider === 'sysv') {
    throw new ValidationError('scope = "user" needs the systemd provider; sysv init scripts have no user scope');
  }
  return properties;
}

/** `ensure` and its alias `state`: either may be given, both only when they agree. */
function parseEnsure(params: Params): RunState {
  const ensure = oneOf('ensure', params.get('ensure'), RUN_STATES);
  const state = oneOf('state', params.get('state'), RUN_STATES);
  if (ensure !== undefined && state !== undefined && ensure !== state) {
    throw new ValidationError(`ensure = "${ensure}" and state = "${state}" disagree; give one of them`);
  }
  return ensure ?? state ?? 'running';
}

function parseEnable(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ValidationError(`enable must be true or false, not ${JSON.stringify(value)}`);
}

function oneOf<T extends string>(key: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ValidationError(`${key} must be ${allowed.map((a) => `"${a}"`).join(' or ')}, not ${JSON.stringify(value)}`);
}
