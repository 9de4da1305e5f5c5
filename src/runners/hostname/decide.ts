// The hostname decision: the kernel's name and the name file, each checked against the name wanted,
// and one message for both (noop: "Would have set the kernel's name old -> web1; Would have changed
// /etc/hostname (content)"). Pure: the decision table of docs/hostname.md.
import { decideWholeFile, type WholeFileCurrent, type WholeFileDesired, type WholeFilePlan } from '../lib/whole-file/decide.js';
import { nameInFile, type HostnameProperties } from './properties.js';

export interface HostnameCurrent {
  /** The kernel's name now (/proc/sys/kernel/hostname), when `apply`. */
  live?: string;
  /** The name file, when `persist`. */
  file?: WholeFileCurrent;
}

export interface HostnamePlan {
  changed: boolean;
  /** The name to give the kernel, when it has another. */
  setLive?: string;
  /** The name file's plan and the file it wants, when the file is managed. */
  file?: WholeFilePlan;
  dropIn?: WholeFileDesired;
  /** The parts of the message, each lower case. */
  parts: string[];
}

/** The file is root's and read by all (hostname(5)); one holding the name already keeps its comments. */
const FILE_MODE = 0o644;

export function decideHostname(desired: HostnameProperties, current: HostnameCurrent): HostnamePlan {
  const parts: string[] = [];
  let changed = false;
  let setLive: string | undefined;
  if (desired.apply && current.live !== undefined) {
    const have = current.live.trim();
    if (have !== desired.name) {
      setLive = desired.name;
      changed = true;
      parts.push(`set the kernel's name ${have} -> ${desired.name}`);
    } else parts.push(`the kernel's name is ${have}`);
  }
  let file: WholeFilePlan | undefined;
  let dropIn: WholeFileDesired | undefined;
  if (desired.persist && current.file !== undefined) {
    const now = current.file.type === 'file' ? current.file.content : undefined;
    const content = now !== undefined && nameInFile(now.toString('utf8')) === desired.name ? now : Buffer.from(`${desired.name}\n`);
    dropIn = { path: desired.file, ensure: 'present', content, mode: FILE_MODE, uid: 0, gid: 0 };
    file = decideWholeFile(dropIn, current.file);
    changed ||= file.changed;
    parts.push(file.changed ? file.summary : `${desired.file} names ${desired.name}`);
  }
  return { changed, setLive, file, dropIn, parts };
}

/** The parts joined by "; ", each "Would have ..." in noop mode when it is a change. */
export function hostnameMessage(plan: HostnamePlan, noop: boolean): string {
  if (!noop || !plan.changed) return plan.parts.join('; ');
  return plan.parts.map((p) => (/^(set|created|changed) /.test(p) ? `Would have ${p}` : p)).join('; ');
}
