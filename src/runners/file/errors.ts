// Errors the decision and the posix provider both raise, worded once (the line runner's too).
import { UserError } from '../../shared/errors.js';

export function symlinkError(path: string, target: string): UserError {
  return new UserError(`${path} is a symbolic link (to ${target}); govern does not follow or replace a symbolic link at a managed path`);
}

export function changedWhileReading(path: string): UserError {
  return new UserError(`${path} changed type while govern was working on it; nothing was changed, run again`);
}

/** A system call's failure ("EACCES: permission denied, open '/etc/x'") is the user's to act on. */
export function asUserError(e: unknown): unknown {
  const errno = e as NodeJS.ErrnoException;
  if (e instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') return new UserError(e.message);
  return e;
}
