// The rule for every runner that shows a file's content (a diff): it shows it only when everyone
// may read that file. What a runner shows reaches the run's output, the journal and the run record,
// which everyone can read (0644, for monitoring agents that do not run as root); a file only its
// owner or group can read may hold a password beside the line that changed (docs/security.md,
// "Content in records").

/** Any user may read the file: the permission bit "read by others". */
const READ_BY_OTHERS = 0o004;

/**
 * Why a diff of the file at path must not be shown, given its modes (before the change, after it;
 * undefined for a mode not known or not set), or undefined when it may be shown.
 */
export function privateContent(path: string, modes: readonly (number | undefined)[]): string | undefined {
  const closed = modes.find((mode) => mode !== undefined && (mode & READ_BY_OTHERS) === 0);
  if (closed === undefined) return undefined;
  return `${path} is not readable by all (mode ${(closed & 0o7777).toString(8).padStart(4, '0')}), and the report is`;
}
