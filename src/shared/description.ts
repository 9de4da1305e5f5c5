// What a runner accepts, as it describes itself (docs/runners.md, "Describing a runner"): its keys
// with their types and cross-key rules, the signals it understands, whether it speaks the persistent
// protocol, and the ordering it asks for. govern checks every resource against it before anything
// is applied, and the runner kit checks its own arguments against the very same description.

/** Set (to 1) when govern asks a runner to describe itself: it prints one JSON document and exits 0. */
export const DESCRIBE_ENV = 'GOVERN_DESCRIBE';
/** The `govern_runner` field of a description: the version of this format. */
export const DESCRIPTION_FORMAT = 1;

export const VALUE_TYPES = ['string', 'integer', 'boolean', 'enum', 'mode', 'path', 'duration', 'regex', 'list', 'map'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** One value: the resource name, a key's value, or an element of a list. */
export interface ValueSpec {
  readonly type: ValueType;
  /** enum: the allowed words. string: words allowed besides what `pattern` allows. */
  readonly values?: readonly string[];
  /** string, path: an ECMAScript regular expression the whole value must match. */
  readonly pattern?: string;
  /** string: a character class (`A-Za-z0-9._-`) every character must belong to; no leading "-". */
  readonly chars?: string;
  /** What a valid value is, for messages: `name "a b" is not a package name`. */
  readonly what?: string;
  /** integer: the smallest and largest value. mode: the largest (default 0o7777). */
  readonly min?: number;
  readonly max?: number;
  /** path: no `.` or `..` component, no `//`, no trailing `/`. */
  readonly clean?: boolean;
  /** list: each element. */
  readonly items?: ValueSpec;
}

/** A value written in a state file: a JSON scalar, or a list of them. */
export type DefaultValue = string | number | boolean | readonly (string | number | boolean)[];

export interface KeySpec extends ValueSpec {
  /** One line for the runner's documentation. */
  readonly help?: string;
  readonly required?: boolean;
  /** The value the runner uses when the key is not given. */
  readonly default?: DefaultValue;
  /** The value is secret: govern never shows it, in messages or anywhere else. */
  readonly sensitive?: boolean;
  /** Shown even for a `sensitive = true` resource: it says what the resource is (its kind, owner, permissions), not its value, as Puppet shows beside a Sensitive value. */
  readonly shown?: boolean;
}

export interface NameSpec extends ValueSpec {
  readonly help?: string;
}

/** Keys (of the same resource) and the values that make the condition hold; a key not given counts with its default. */
export type Condition = Readonly<Record<string, readonly string[]>>;

export type Rule =
  /** At most one of these keys. */
  | { readonly exclusive: readonly string[] }
  /** These keys are required when the condition holds. */
  | { readonly when: Condition; readonly require: readonly string[] }
  /** These keys are allowed only when the condition holds. */
  | { readonly only_when: Condition; readonly keys: readonly string[] }
  /** When the condition holds, these keys (if given) take only these values. */
  | { readonly when: Condition; readonly values: Readonly<Record<string, readonly string[]>> }
  /** Each key given needs the keys listed for it (`vars` only with `template`). */
  | { readonly requires: Readonly<Record<string, readonly string[]>> }
  /**
   * When the condition holds, each key given as a relative path must name an existing entry of this
   * kind, relative to the directory of the state file: govern looks while planning (an absolute
   * path names the host's own files, which only the runner judges when it applies).
   */
  | { readonly when: Condition; readonly relative_paths: Readonly<Record<string, RelativePathKind>> };

/** What a `relative_paths` rule asks a key's path to name (following symbolic links, as a read does). */
export const RELATIVE_PATH_KINDS = ['file', 'directory'] as const;
export type RelativePathKind = (typeof RELATIVE_PATH_KINDS)[number];

/**
 * An ordering edge the runner asks for: this resource comes after the resources of `runner` named
 * by the values of `key` (or by the nearest managed parent directory of this resource's name).
 */
export interface Autorequire {
  readonly runner: string;
  readonly key?: string;
  readonly parent_of_name?: boolean;
  /** The resource of its own name (a mount point's directory), or else its nearest managed parent directory. */
  readonly name_or_parent?: boolean;
  /**
   * After the resources of `runner` whose names are the files of the systemd unit this resource's
   * name means (`nginx`: `nginx.service` and its drop-ins; `getty@tty1`: also `getty@.service`'s).
   */
  readonly systemd_unit_of_name?: boolean;
  /**
   * After the resource of `runner` defined last before this one with the same value of this key (two
   * `line` resources of one `path`): such resources are applied one at a time, in definition order,
   * even with --jobs, since each one reads what the one before it wrote.
   */
  readonly same_key?: string;
  /**
   * After every resource of `runner` (a package after the repositories: their index refresh comes
   * first). Such an edge is left out where the tree already orders the two the other way, directly
   * or through other resources, so that it never makes a cycle.
   */
  readonly every?: boolean;
  /** The edge points the other way (this resource first) when this resource's keys match. */
  readonly reverse_when?: Condition;
  /** ... or when the other resource's keys match (a user being removed: the files it owns first). */
  readonly reverse_when_other?: Condition;
}

/**
 * A file (or directory) the runner writes for a resource, by a template of its name and keys
 * (docs/runners.md, "Files a runner writes"): `/etc/cron.d/{name}`, `~{user}/.ssh/authorized_keys`.
 * A directory's purge keeps it.
 */
export interface WrittenPath {
  readonly path: string;
  /** Only when the resource's keys (as given, or their defaults) meet this condition. */
  readonly when?: Condition;
}

export interface RunnerDescription {
  /** What the runner manages, in one line. */
  readonly help?: string;
  /** It speaks the persistent protocol as well as the one-shot one. */
  readonly persistent?: boolean;
  /** The resource name. Left out: any name. */
  readonly name?: NameSpec;
  /** Every key it accepts. Left out: any key, unchecked. */
  readonly keys?: Readonly<Record<string, KeySpec>>;
  readonly rules?: readonly Rule[];
  /** The signals it understands in notification mode. Left out: any signal, unchecked. */
  readonly signals?: readonly string[];
  readonly autorequire?: readonly Autorequire[];
  /** The files it writes besides its name and its `path` keys (a purge keeps them). */
  readonly writes?: readonly WrittenPath[];
  /**
   * Absolute paths of other files the description comes from (a runner that is a wrapper script
   * around a program): govern describes the runner again when one of them changes.
   */
  readonly sources?: readonly string[];
}

/** The JSON document a runner prints when asked to describe itself. */
export interface DescriptionDocument extends RunnerDescription {
  readonly govern_runner: typeof DESCRIPTION_FORMAT;
}
