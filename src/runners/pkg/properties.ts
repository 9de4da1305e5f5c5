// The pkg runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

export type Ensure =
  | { kind: 'present' }
  | { kind: 'absent' }
  | { kind: 'purged' }
  | { kind: 'latest' }
  | { kind: 'version'; version: string };

export type ProviderName = 'apt' | 'dnf' | 'pacman' | 'zypper' | 'pkgng';

export interface PackageProperties {
  /** The package name, as the package manager knows it (`libc6:amd64` works with apt). */
  name: string;
  ensure: Ensure;
  /** Chosen from the host when not given. */
  provider?: ProviderName;
}

const WORDS: Record<string, Ensure> = {
  present: { kind: 'present' },
  installed: { kind: 'present' },
  absent: { kind: 'absent' },
  removed: { kind: 'absent' },
  purged: { kind: 'purged' },
  latest: { kind: 'latest' },
};

export function packageProperties(request: Pick<RunnerRequest<Values<typeof description>>, 'name' | 'values'>): PackageProperties {
  const { ensure, state, provider } = request.values;
  return { name: request.name, ensure: parseEnsure(state ?? ensure), provider };
}

/** A word, or a version (already checked against the description). */
export function parseEnsure(text: string): Ensure {
  return WORDS[text] ?? { kind: 'version', version: text };
}

export function describeEnsure(ensure: Ensure): string {
  return ensure.kind === 'version' ? ensure.version : ensure.kind;
}
