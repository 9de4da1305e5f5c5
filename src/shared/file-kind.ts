// What a path is, in words, for messages that refuse anything but a regular file (the core reading
// state files, the file runner reading a source).
import type { Stats } from 'node:fs';

export function describeFileKind(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isDirectory()) return 'a directory';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}
