// The hostname decision: the file's content as wanted + as found -> write or not, and its message. Pure.
import { decideWholeFile, wholeFileMessage, type WholeFileCurrent, type WholeFileDesired, type WholeFilePlan } from '../lib/whole-file/decide.js';

export function decideHostname(desired: WholeFileDesired, current: WholeFileCurrent): { plan: WholeFilePlan; message: (noop: boolean) => string } {
  const plan = decideWholeFile(desired, current);
  return { plan, message: (noop) => wholeFileMessage(plan, noop) };
}
