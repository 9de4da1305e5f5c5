// Errors the decision and the posix provider both raise, worded once (the line runner's too).
import { UserError } from '../../../shared/errors.js';

export function symlinkError(path: string, target: string): UserError {
  return new UserError(`${path} is a symbolic link (to ${target}); govern does not follow or replace a symbolic link at a managed path`);
}

export function changedWhileReading(path: string): UserError {
  return new UserError(`${path} changed type while govern was working on it; nothing was changed, run again`);
}
