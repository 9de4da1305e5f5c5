// A resource as the state files declare it, before the graph is built.
import type { Location } from '../shared/errors.js';
import type { AttrValue, Attributes } from '../shared/protocol.js';
import type { ModuleMembership } from './modules/declarations.js';

/** Keys the core uses for ordering; they are not passed to runners. */
export const ORDERING_KEYS = ['before', 'after', 'notify', 'subscribe'] as const;
export type OrderingKey = (typeof ORDERING_KEYS)[number];

/** The core key naming a resource's tags, for --tags and --skip-tags; not passed to runners either. */
export const TAGS_KEY = 'tags';
/** A tag as written in `tags` (Puppet's rule): letters, digits and _, then also `.`, `:` and `-`. */
export const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

/** Core keys of any resource, not passed to the runner: `sensitive = true` hides its values (shared/sensitive.ts). */
export const SENSITIVE_KEY = 'sensitive';
/** Core key of any resource: `noop = true` applies it in noop mode even in a real run (Puppet's per-resource noop). */
export const NOOP_KEY = 'noop';
/** Core keys of a file's content from a template: rendered into `contents` while planning (templates/resource-templates.ts). */
export const TEMPLATE_KEY = 'template';
export const VARS_KEY = 'vars';

export interface ResourceTemplate {
  /** As written: a name in the templates directories, or a path (`./x`, `../x`, `/x`). */
  name: string;
  vars: { [key: string]: AttrValue };
  /** The file it was found at, once planning has rendered it (for `govern plan --explain`). */
  file?: string;
}

export interface Resource {
  /** RREF: `runner:name`. */
  ref: string;
  type: string;
  name: string;
  /** Everything but the core's keys, passed to the runner. */
  attrs: Attributes;
  /** The ordering keys as written (strings), resolved when the graph is built. */
  links: Record<OrderingKey, string[]>;
  /** `sensitive = true`, or a value from a sensitive fact: govern never shows or stores its values. */
  sensitive?: boolean;
  /** `noop = true`: only report what it would change, in every run. */
  noop?: boolean;
  /** Keys given whose runner's description marks them `sensitive` (a password hash): their values are hidden. Set while planning. */
  secretKeys?: string[];
  /** Of a sensitive resource: the keys its runner describes as `shown`, whose values are not hidden. */
  shownKeys?: string[];
  /** `template` and `vars`, until planning renders them into `contents`. */
  template?: ResourceTemplate;
  /** The `tags` key as written (the runner name and the RREF are tags too: see graph/select.ts). */
  tags: string[];
  /** Where it was declared (its block header), for messages and the report. */
  at: Location;
  /** Where each of its keys is written, ordering keys included: messages about a key point there. */
  keyAt?: Record<string, Location>;
  file: string;
  /** Definition order across all state files. */
  index: number;
  /** GOVERN_STATE_DIR: the directory of the state file. */
  stateDir: string;
  /** The module instance that declared it, if one did (docs/modules.md). */
  module?: ModuleMembership;
}

export function rref(type: string, name: string): string {
  return `${type}:${name}`;
}

/** Where a key of the resource is written; its block header when the key is not (a missing key). */
export function keyLocation(resource: Resource, key: string | undefined): Location {
  return (key !== undefined ? resource.keyAt?.[key] : undefined) ?? resource.at;
}
