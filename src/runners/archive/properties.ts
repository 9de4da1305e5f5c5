// The archive runner's properties, from its arguments as the description reads them. Pure.
import path from 'node:path';
import { UserError } from '../../shared/errors.js';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;
export type ArchiveFormat = NonNullable<Described['format']>;

export interface ArchiveProperties {
  target: string;
  source: string;
  sha256: string;
  format: ArchiveFormat;
  caFile?: string;
  owner?: string;
  group?: string;
  creates?: string;
}

/** Kept in the extracted directory: the archive it holds, so a new checksum re-extracts. */
export const MARKER = '.govern-archive';

const SUFFIXES: [RegExp, ArchiveFormat][] = [
  [/\.(tar\.gz|tgz)$/i, 'tar.gz'],
  [/\.(tar\.xz|txz)$/i, 'tar.xz'],
  [/\.tar$/i, 'tar'],
  [/\.zip$/i, 'zip'],
];

export function archiveProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): ArchiveProperties {
  const v = request.values;
  const source = v.source!;
  const format = v.format ?? formatOf(source);
  return { target: request.name, source, sha256: v.sha256!.toLowerCase(), format, caFile: v.ca_file, owner: v.owner, group: v.group, creates: v.creates };
}

function formatOf(source: string): ArchiveFormat {
  const name = path.posix.basename(source.replace(/[?#].*$/, ''));
  const found = SUFFIXES.find(([re]) => re.test(name));
  if (!found) throw new UserError(`cannot tell the format of ${source} from its name: give format ("tar.gz", "tar.xz", "tar" or "zip")`);
  return found[1];
}

/** The marker's content: what a later run compares. */
export function markerContent(p: Pick<ArchiveProperties, 'sha256' | 'source'>): string {
  return `sha256 ${p.sha256}\nsource ${p.source}\n`;
}

/** The SHA-256 a marker records, if it is one. */
export function markedSha256(content: string | undefined): string | undefined {
  return content?.match(/^sha256 ([0-9a-f]{64})$/m)?.[1];
}

/** An entry name that would land outside the target: absolute, or with a ".." component. */
export function escapingEntry(name: string): boolean {
  return name.startsWith('/') || name.split('/').includes('..');
}
