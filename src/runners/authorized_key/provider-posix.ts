// The authorized_key provider: the user's passwd entry (getent, lib/accounts), the home and ~/.ssh
// as they are, authorized_keys read whole, and the directory and file written with the posix file
// operations (lib/file: never through a link, the file replaced atomically).
import type { ProviderContext } from '../../shared/command-runner.js';
import { passwdEntryOf, type PasswdEntry } from '../lib/accounts/database.js';
import { posixProvider } from '../lib/file/posix.js';
import type { Attributes, Current, StoreContent } from '../lib/file/state.js';
import type { WholeFileCurrent } from '../lib/whole-file/decide.js';
import { readWholeFile } from '../lib/whole-file/provider-posix.js';

export interface AuthorizedKeyProvider {
  /** The user's passwd entry; undefined when there is no such user. */
  user(name: string): Promise<PasswdEntry | undefined>;
  /** What is at `path` (the home, ~/.ssh), its content not read. */
  status(path: string): Promise<Current>;
  /** authorized_keys, read whole. */
  keys(file: string): Promise<WholeFileCurrent>;
  createDirectory(dir: string, attrs: Attributes): Promise<void>;
  updateDirectory(dir: string, attrs: Attributes): Promise<void>;
  /** The file replaced atomically with this content (or its own) and these attributes; `existed`: a file is there. */
  store(file: string, content: StoreContent, attrs: Attributes, existed: boolean): Promise<void>;
}

export function posixKeysProvider(context: ProviderContext): AuthorizedKeyProvider {
  return {
    user: (name) => passwdEntryOf(context, name),
    status: (path) => posixProvider.status(path, { checkEmpty: false, keepContentUpTo: 0 }),
    keys: readWholeFile,
    createDirectory: (dir, attrs) => posixProvider.createDirectory(dir, attrs, 'nothing'),
    updateDirectory: (dir, attrs) => posixProvider.updateDirectory(dir, attrs),
    store: (file, content, attrs, existed) => posixProvider.store(file, content, attrs, existed ? 'file' : 'nothing', false),
  };
}
