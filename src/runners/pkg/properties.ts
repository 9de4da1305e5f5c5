// The pkg runner's arguments, read and checked before anything runs.
import type { Params } from '../../shared/protocol.js';
import { checkChars, PACKAGE_NAME, PACKAGE_VERSION, ValidationError } from '../../shared/validate.js';

export type Ensure =
  | { kind: 'present' }
  | { kind: 'absent' }
  | { kind: 'latest' }
  | { kind: 'version'; version: string };

export const PROVIDER_NAMES = ['apt', 'dnf'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface PackageProperties {
  /** The package name, as the package manager knows it (`libc6:amd64` works with apt). */
  name: string;
  ensure: Ensure;
  /** Chosen from the host when not given. */
  provider?: ProviderName;
}

const KNOWN_KEYS = ['ensure', 'state', 'provider'];

/** Words for `ensure` (the seed's) and `state` (govern's README: installed, removed). */
const ENSURE_WORDS: Record<string, Ensure> = {
  present: { kind: 'present' },
  installed: { kind: 'present' },
  absent: { kind: 'absent' },
  removed: { kind: 'absent' },
  latest: { kind: 'latest' },
};

export function parseProperties(name: string, params: Params): PackageProperties {
  checkChars(PACKAGE_NAME, name);
  for (const key of params.keys()) {
    if (!KNOWN_KEYS.includes(key)) throw new ValidationError(`unknown property "${key}" (pkg understands ${KNOWN_KEYS.join(', ')})`);
  }
  const ensureText = params.get('ensure');
  const stateText = params.get('state');
  if (ensureText !== undefined && stateText !== undefined) {
    throw new ValidationError('give either ensure or state, not both (state = "installed" is ensure = "present")');
  }
  const ensure = parseEnsure(ensureText ?? stateText ?? 'present', ensureText !== undefined ? 'ensure' : 'state');
  const providerText = params.get('provider');
  let provider: ProviderName | undefined;
  if (providerText !== undefined) {
    if (!(PROVIDER_NAMES as readonly string[]).includes(providerText)) {
      throw new ValidationError(`unknown provider "${providerText}" (known: ${PROVIDER_NAMES.join(', ')})`);
    }
    provider = providerText as ProviderName;
  }
  return { name, ensure, provider };
}

/** present | installed | absent | removed | latest | a version (checked for its characters here, for its syntax by the provider). */
export function parseEnsure(text: string, key = 'ensure'): Ensure {
  const word = ENSURE_WORDS[text];
  if (word) return word;
  if (text === '') throw new ValidationError(`${key} is empty (use present, absent, latest or a version)`);
  checkChars({ ...PACKAGE_VERSION, what: `${key} version` }, text);
  return { kind: 'version', version: text };
}

export function describeEnsure(ensure: Ensure): string {
  return ensure.kind === 'version' ? ensure.version : ensure.kind;
}
