// The data a template reads (`{{data "ntp/servers"}}`): what the data phase hands to the templates.
// A value comes with where it came from (its level, file and line), so that messages, `govern data
// --explain` and later readers (secrets, plans) can name its origin; `sensitive` travels with it
// as a sensitive fact's taint does (docs/data.md).
import type { AttrValue } from '../shared/protocol.js';

/** Where a value, or one part of a merged value, was written. */
export interface DataOrigin {
  /** The level as rendered from hierarchy.hcl: `roles/web`. */
  level: string;
  file: string;
  /** The line of the top-level key that holds the value, when the file's format tells it. */
  line?: number;
}

export interface DataFound {
  value: AttrValue;
  /** The levels the value came from, most specific first (several for a merge). */
  origins: DataOrigin[];
  /** A value no message or record may show (marked by the reader of its file). */
  sensitive?: boolean;
  /** In a preview, a value that could not be decrypted stands for `<sensitive>`: what it holds is not known. */
  unread?: boolean;
}

export interface DataSource {
  /** The value of a key path (`ntp/servers`), or undefined when no level has it. */
  lookup(key: string): DataFound | undefined;
  /** The levels searched, most specific first, for messages about a missing key. */
  readonly levels: readonly string[];
}

/** A level's data file as read, whatever its format (data-files.ts): its top-level keys. */
export interface DataFile {
  file: string;
  values: { [key: string]: AttrValue };
  /** The line of each top-level key. */
  lines: Map<string, number>;
  /** The line of each key path inside maps too (`db/password`), where the format tells it. */
  keyLines?: Map<string, number>;
}
