// Errors the decision and the posix provider both raise, worded once.
import { RunnerError } from '../kit.js';

export function symlinkError(path: string, target: string): RunnerError {
  return new RunnerError(`${path} is a symbolic link (to ${target}); govern does not follow or replace a symbolic link at a managed path`);
}

export function changedWhileReading(path: string): RunnerError {
  return new RunnerError(`${path} changed type while govern was working on it; nothing was changed, run again`);
}
