// The unit decision: the unit's file as wanted + as found -> what to do and its message. Pure: the
// whole-file decision table (docs/unit.md), and the reload that follows a change.
import { decideWholeFile, wholeFileMessage, type WholeFileCurrent, type WholeFileDesired, type WholeFilePlan } from '../lib/whole-file/decide.js';

export interface UnitPlan extends WholeFilePlan {
  /** A change means systemd must read its units again (daemon-reload). */
  reload: boolean;
}

export function decideUnit(desired: WholeFileDesired, current: WholeFileCurrent): UnitPlan {
  const plan = decideWholeFile(desired, current);
  return { ...plan, reload: plan.changed };
}

/**
 * "created /etc/systemd/system/app.service; daemon-reload pending" (or "; reloaded" outside a run);
 * in noop mode "Would have created ...", nothing about the reload.
 */
export function unitMessage(plan: UnitPlan, noop: boolean, reload?: 'pending' | 'reloaded'): string {
  const message = wholeFileMessage(plan, noop);
  if (noop || reload === undefined) return message;
  return `${message}; ${reload === 'pending' ? 'daemon-reload pending' : 'daemon-reload done'}`;
}
