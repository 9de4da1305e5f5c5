// The posix provider: status, atomic store, directory and link creation, and removal with plain
// system calls. The managed path itself is never followed: it is examined with lstat and opened
// with O_NOFOLLOW, and checked again right before it is replaced. Its parent directory is resolved
// once by chase (links followed only as CHASE_SAFE allows) and held open; every system call reaches
// the path through that handle, never by its name again (docs/file.md, "Symbolic links on the way").
import type { FileProvider } from './state.js';
import { list, readSource, status } from './read.js';
import { inPlace } from './walk.js';
import { createDirectory, createLink, remove, store, updateDirectory, updateLink } from './write.js';

export const posixProvider: FileProvider = {
  status,
  readSource,
  store: (path, ...rest) => inPlace(path, (p) => store(p, ...rest)),
  createDirectory: (path, ...rest) => inPlace(path, (p) => createDirectory(p, ...rest)),
  updateDirectory: (path, ...rest) => inPlace(path, (p) => updateDirectory(p, ...rest)),
  remove: (path, ...rest) => inPlace(path, (p) => remove(p, ...rest)),
  createLink: (path, ...rest) => inPlace(path, (p) => createLink(p, ...rest)),
  updateLink: (path, ...rest) => inPlace(path, (p) => updateLink(p, ...rest)),
  list: (path) => inPlace(path, (p) => list(p)),
};
