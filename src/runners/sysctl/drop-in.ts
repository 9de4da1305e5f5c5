// A sysctl drop-in's content with one key set or removed, the file's other lines kept: several
// sysctl resources may share one file (file = "/etc/sysctl.d/60-router.conf"), each managing its own
// line, as Puppet's sysctl `target` and Ansible's `sysctl_file` do. Pure.
import { normalValue } from './properties.js';

const HEADER = /^# Managed by govern: sysctl\b/;

/** The key a line of sysctl.d(5) sets (`-` in front: errors ignored), or undefined for comments and blanks. */
function keyOf(line: string): string | undefined {
  const t = line.trim();
  if (t === '' || t.startsWith('#') || t.startsWith(';')) return undefined;
  const eq = t.indexOf('=');
  const key = (eq < 0 ? t : t.slice(0, eq)).trim().replace(/^-/, '');
  // sysctl.d(5): "/" and "." are both separators: net/ipv4/ip_forward is net.ipv4.ip_forward.
  return key.includes('/') && !key.includes('.') ? key.replace(/\//g, '.') : key;
}

/**
 * The content with `key = value` (value undefined: the key's lines removed). The first line setting
 * the key is replaced in place and its repetitions dropped; a key not in the file is added at the end.
 * undefined: nothing but govern's header is left, and the file goes. A new file's header names the
 * key when the file is the key's own (`shared` false: the default drop-in).
 */
export function withKey(current: string | undefined, key: string, value: string | undefined, shared = false): string | undefined {
  const line = value === undefined ? undefined : `${key} = ${normalValue(value)}`;
  if (current === undefined) return line === undefined ? undefined : `# Managed by govern: sysctl${shared ? '' : ` "${key}"`}\n${line}\n`;
  const lines = current.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const out: string[] = [];
  let placed = false;
  for (const l of lines) {
    if (keyOf(l) !== key) out.push(l);
    else if (line !== undefined && !placed) {
      out.push(line);
      placed = true;
    }
  }
  if (line !== undefined && !placed) out.push(line);
  if (out.every((l) => l.trim() === '' || HEADER.test(l))) return undefined;
  return `${out.join('\n')}\n`;
}
