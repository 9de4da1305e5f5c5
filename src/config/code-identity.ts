// The build of govern that is running: its version and the identity (path, size, modification time,
// inode) of the file its code is in. What the cache keeps of planning (a parsed state file, a parsed
// template) holds for that build only: another one, a checkout rebuilt among them, starts anew.
import fs from 'node:fs';
import { governVersion } from './paths.js';

let identity: string | undefined;

export function codeIdentity(): string {
  if (identity !== undefined) return identity;
  try {
    const st = fs.statSync(__filename);
    identity = `${governVersion()}\0${__filename}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
  } catch {
    identity = `${governVersion()}\0${__filename}`;
  }
  return identity;
}
