// The sysctl decision: the key's live value and its drop-in, each checked against what is wanted,
// and one message for both (noop: "Would have set live value 0 -> 1; Would have created FILE").
// Pure: the decision table of docs/sysctl.md.
import { UserError } from '../../shared/errors.js';
import { decideWholeFile, type WholeFileCurrent, type WholeFileDesired, type WholeFilePlan } from '../lib/whole-file/decide.js';
import { normalValue, type SysctlProperties } from './properties.js';

export interface SysctlCurrent {
  /** The live value as read from /proc/sys; undefined: the kernel has no such key. */
  live?: string;
  file: WholeFileCurrent;
}

export interface SysctlPlan {
  changed: boolean;
  /** The live value to write, when it differs. */
  setLive?: string;
  /** The drop-in's plan, when the drop-in is managed. */
  file?: WholeFilePlan;
  /** The parts of the message, each lower case: "set live value 0 -> 1", "live value 1". */
  parts: string[];
}

export function decideSysctl(desired: SysctlProperties, current: SysctlCurrent, dropIn: WholeFileDesired): SysctlPlan {
  const parts: string[] = [];
  let changed = false;
  let setLive: string | undefined;
  if (desired.ensure === 'present' && desired.apply) {
    if (current.live === undefined) throw new UserError(`the kernel has no sysctl ${desired.key} (no ${'/proc/sys'} entry: a typing error, or a module not loaded)`);
    const want = normalValue(desired.value!);
    const have = normalValue(current.live);
    if (want !== have) {
      setLive = want;
      changed = true;
      parts.push(`set live value ${have} -> ${want}`);
    } else parts.push(`live value ${have}`);
  }
  let file: WholeFilePlan | undefined;
  if (desired.persist || desired.ensure === 'absent') {
    file = decideWholeFile(dropIn, current.file);
    changed ||= file.changed;
    parts.push(file.changed ? file.summary : desired.ensure === 'absent' ? file.summary : `persisted in ${dropIn.path}`);
  }
  return { changed, setLive, file, parts };
}

/** The parts joined by "; ", each "Would have ..." in noop mode when it is a change. */
export function sysctlMessage(plan: SysctlPlan, noop: boolean): string {
  if (!noop || !plan.changed) return plan.parts.join('; ');
  return plan.parts.map((p) => (/^(set|created|changed|removed) /.test(p) ? `Would have ${p}` : p)).join('; ');
}
