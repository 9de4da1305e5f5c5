// The apt_repository runner's properties, from its arguments as the description reads them, and the
// deb822 file they make. Pure.
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';
import { normalizeFingerprint } from './openpgp.js';

type Described = Values<typeof description>;

/** Where the key comes from: inline (armored), a file (copied), or a URL (fetched and checked). */
export type KeySource = { kind: 'inline'; text: string } | { kind: 'file'; path: string } | { kind: 'url'; url: string };

export interface AptRepositoryProperties {
  name: string;
  ensure: Described['ensure'];
  types: string[];
  uris: string[];
  suites: string[];
  components: string[];
  architectures: string[];
  key?: KeySource;
  /** Upper-case hex, no spaces; empty: not pinned. */
  fingerprints: string[];
}

export function aptRepositoryProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values' | 'stateDir'>): AptRepositoryProperties {
  const v = request.values;
  const where = `apt_repository ${request.name}`;
  const key = v.signed_by === undefined ? undefined : keySource(v.signed_by, request.stateDir);
  const fingerprints = v.fingerprint.map(normalizeFingerprint);
  if (key?.kind === 'url' && fingerprints.length === 0) {
    throw new UserError(`${where}: signed_by is a URL, so give the key's fingerprint too: a key fetched unchecked could be anyone's`);
  }
  if (v.ensure === 'present') {
    // deb822: a suite that is a path (ending in /) is a flat repository, and then no components are given.
    const flat = v.suites.filter((s) => s.endsWith('/'));
    if (flat.length > 0 && v.components.length > 0) throw new UserError(`${where}: suite ${flat[0]} is a flat repository (it ends in /), which takes no components`);
    if (flat.length < v.suites.length && v.components.length === 0) throw new UserError(`${where}: give components (main, ...) for suite ${v.suites.find((s) => !s.endsWith('/'))}`);
  }
  return {
    name: request.name,
    ensure: v.ensure,
    types: v.types,
    uris: v.uris,
    suites: v.suites,
    components: v.components,
    architectures: v.architectures,
    key,
    fingerprints,
  };
}

function keySource(value: string, stateDir: string | undefined): KeySource {
  if (value.includes('-----BEGIN PGP')) return { kind: 'inline', text: value };
  if (/^https?:\/\//i.test(value)) return { kind: 'url', url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) throw new UserError(`signed_by ${value}: only http and https URLs are fetched`);
  return { kind: 'file', path: path.resolve(stateDir ?? process.cwd(), value) };
}

/** The deb822 stanza (sources.list(5)); `keyring` is the file Signed-By names, if any. */
export function sourcesContent(props: AptRepositoryProperties, keyring: string | undefined): string {
  const lines = [
    `# Written by govern (apt_repository "${props.name}"); a change made here is undone at its next run.`,
    `Types: ${props.types.join(' ')}`,
    `URIs: ${props.uris.join(' ')}`,
    `Suites: ${props.suites.join(' ')}`,
  ];
  if (props.components.length > 0) lines.push(`Components: ${props.components.join(' ')}`);
  if (props.architectures.length > 0) lines.push(`Architectures: ${props.architectures.join(' ')}`);
  if (keyring !== undefined) lines.push(`Signed-By: ${keyring}`);
  return `${lines.join('\n')}\n`;
}
