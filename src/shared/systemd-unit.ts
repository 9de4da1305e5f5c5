// systemd unit names, shared by the unit runner (what file a resource writes) and planning (which
// `service` resource reads which `unit` resources, for the autorequire edge between them): a unit is
// `PREFIX[@INSTANCE].TYPE` (systemd.unit(5)), a drop-in `UNIT.d/NAME.conf`.

/** The unit types systemd knows (systemd.unit(5)). */
export const UNIT_TYPES = ['service', 'socket', 'device', 'mount', 'automount', 'swap', 'target', 'path', 'timer', 'slice', 'scope'] as const;

/** The characters of a unit name: systemd's own set (with `\` for its escapes, `\x2d`) and `@` for templates. */
export const UNIT_NAME_CHARS = 'A-Za-z0-9:_.@\\\\-';

const UNIT = `[A-Za-z0-9:_.\\\\-]+(?:@[A-Za-z0-9:_.\\\\-]*)?\\.(?:${UNIT_TYPES.join('|')})`;

/** A unit file's name, or a drop-in's path under the unit directory: `app.service`, `app.service.d/limits.conf`. */
export const UNIT_FILE_PATTERN = `${UNIT}(?:\\.d/[A-Za-z0-9:_.@\\\\-]+\\.conf)?`;

const UNIT_FILE = new RegExp(`^(${UNIT})(?:\\.d/([^/]+))?$`);

/** The unit a unit resource's file configures (`app.service` for `app.service.d/limits.conf`), or undefined. */
export function unitOfFile(file: string): string | undefined {
  return UNIT_FILE.exec(file)?.[1];
}

/** A service name as systemctl reads it: `nginx` is `nginx.service`; any other type suffix stays. */
export function serviceUnit(name: string): string {
  const dot = name.lastIndexOf('.');
  const suffix = dot > 0 ? name.slice(dot + 1) : '';
  return (UNIT_TYPES as readonly string[]).includes(suffix) ? name : `${name}.service`;
}

/**
 * The units whose files (and drop-ins) a unit is loaded from: itself and, for a template instance
 * (`getty@tty1.service`), its template (`getty@.service`).
 */
export function unitsReadBy(unit: string): string[] {
  const m = /^([^@]+)@([^@]*)(\.[a-z]+)$/.exec(unit);
  return m && m[2] !== '' ? [unit, `${m[1]}@${m[3]}`] : [unit];
}
