// The benchmark's workload, independent of any tool: N resources in a fixed mix. Every writer
// (govern, puppet, ansible, cfengine, the sh floor) turns the same Workload into its own language.
import crypto from 'node:crypto';

/** A piece of a file's content: literal text, or the host's short name taken from each tool's facts. */
export type Segment = { text: string } | { fact: 'hostname' };

export interface DirectoryResource {
  /** Path relative to the tool's tree. */
  rel: string;
  mode: string;
}

export interface FileResource {
  rel: string;
  mode: string;
  content: Segment[];
}

export interface ExecResource {
  /** Name of the resource (govern, puppet) and the marker file's stem. */
  name: string;
  /** The file the command creates, relative to the tree: the `creates` guard. */
  rel: string;
}

export interface Workload {
  n: number;
  directories: DirectoryResource[];
  files: FileResource[];
  execs: ExecResource[];
  /** Installed base-system packages (ensure present), or invented names for planning-only trees. */
  packages: string[];
  /** sysv services the harness installs, starts and enables (ensure running, enabled). */
  services: string[];
}

/** The mix, in shares of N: what issue 9 asks for. */
export const MIX = { files: 0.4, directories: 0.1, execs: 0.2, packages: 0.2, services: 0.1 } as const;

export const SERVICE_PREFIX = 'govern-bench-';

export interface WorkloadOptions {
  n: number;
  /** Installed packages to draw from (see installedPackages); more are invented when there are too few. */
  availablePackages: string[];
  /** Leave packages out of the workload (no `pkg` runner in this checkout): their share goes to files. */
  withoutPackages?: boolean;
  /** At most the available packages (measured runs above the host's package count): the rest of their share goes to files. */
  capPackages?: boolean;
}

export interface WorkloadCounts {
  files: number;
  directories: number;
  execs: number;
  packages: number;
  services: number;
}

export function countsFor(n: number, withoutPackages = false, maxPackages = Infinity): WorkloadCounts {
  const directories = Math.round(n * MIX.directories);
  const execs = Math.round(n * MIX.execs);
  const packages = withoutPackages ? 0 : Math.min(maxPackages, Math.round(n * MIX.packages));
  const services = Math.round(n * MIX.services);
  const files = n - directories - execs - packages - services;
  if (directories < 1 && files > 0) throw new Error(`N=${n} is too small for the mix (no directory to put files in)`);
  return { files, directories, execs, packages, services };
}

const FILE_MODES = ['0644', '0640', '0600'];
const DIRECTORY_MODES = ['0755', '0750'];

export function buildWorkload(options: WorkloadOptions): Workload {
  const counts = countsFor(options.n, options.withoutPackages, options.capPackages ? options.availablePackages.length : Infinity);
  const width = String(options.n).length;
  const pad = (i: number): string => String(i).padStart(width, '0');

  const directories: DirectoryResource[] = [];
  for (let i = 0; i < counts.directories; i++) {
    directories.push({ rel: `d${pad(i)}`, mode: DIRECTORY_MODES[i % DIRECTORY_MODES.length] });
  }
  const files: FileResource[] = [];
  for (let i = 0; i < counts.files; i++) {
    const dir = directories[i % directories.length];
    files.push({ rel: `${dir.rel}/f${pad(i)}.conf`, mode: FILE_MODES[i % FILE_MODES.length], content: fileContent(i) });
  }
  const execs: ExecResource[] = [];
  for (let i = 0; i < counts.execs; i++) execs.push({ name: `touch-${pad(i)}`, rel: `exec-${pad(i)}.done` });

  const packages = pickPackages(options.availablePackages, counts.packages);
  const services: string[] = [];
  for (let i = 0; i < counts.services; i++) services.push(`${SERVICE_PREFIX}${pad(i)}`);
  return { n: options.n, directories, files, execs, packages, services };
}

/** A dozen lines of a configuration file; every fourth file has a line with the host's name. */
function fileContent(i: number): Segment[] {
  const lines = [`# govern-bench file ${i}: managed, do not edit`];
  for (let k = 0; k < 10; k++) lines.push(`option_${k} = value-${(i * 7919 + k * 104729) % 1000003}`);
  const body = lines.join('\n') + '\n';
  if (i % 4 !== 0) return [{ text: body }];
  return [{ text: body + 'served_by = ' }, { fact: 'hostname' }, { text: '\n' }];
}

/**
 * Packages for `ensure = present`: installed ones first; past those (planning-only trees at large
 * N), invented names, which planning never looks up.
 */
function pickPackages(available: string[], count: number): string[] {
  const chosen = available.slice(0, count);
  for (let i = chosen.length; i < count; i++) chosen.push(`govern-bench-absent-pkg-${i}`);
  return chosen;
}

export function contentText(content: Segment[], hostname: string): string {
  return content.map((s) => ('text' in s ? s.text : hostname)).join('');
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** How many resources of the workload a tool must manage: what each tool's report is checked against. */
export function resourceCount(w: Workload): number {
  return w.directories.length + w.files.length + w.execs.length + w.packages.length + w.services.length;
}

/** Resources a first run on an empty tree changes: packages and services are already as wanted. */
export function firstRunChanges(w: Workload): number {
  return w.directories.length + w.files.length + w.execs.length;
}
