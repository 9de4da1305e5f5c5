// What the file library sees and does at a path (read.ts, write.ts, posix.ts): a file's attributes,
// what is on disk (Current), and the provider interface the seed names (Status, Store,
// CreateDirectory, plus the in-place directory update and removal the file runner's table needs).
// What a state file asks of a file is the file runner's own (src/runners/file/desired.ts).

/** Owner, group and permission bits of a file or directory. */
export interface Attributes {
  uid: number;
  gid: number;
  /** Permission bits, st_mode & 07777. */
  mode: number;
}

/** Names of the current owner and group, when the runner looked them up (for messages). */
export interface AttributeNames {
  owner?: string;
  group?: string;
}

export type ParentState = 'directory' | 'missing' | 'not-directory';

export type Current =
  | { type: 'absent'; parent: ParentState }
  | { type: 'file'; attrs: Attributes; names?: AttributeNames; size: number; sha256: string; content?: Buffer }
  | { type: 'directory'; attrs: Attributes; names?: AttributeNames; empty?: boolean }
  | { type: 'symlink'; target: string; attrs: Attributes; names?: AttributeNames }
  | { type: 'other'; kind: string };

export interface StatusOptions {
  /** Find out whether a directory is empty (only needed when it may be removed or replaced). */
  checkEmpty: boolean;
  /** Keep a regular file's bytes in memory when it is at most this large (for the diff). */
  keepContentUpTo: number;
}

/** What is at the path that a store or create must replace. */
export type Replacing = 'nothing' | 'file' | 'directory' | 'link';

/** The new file's content: these bytes, or the current file's bytes (content not managed). */
export type StoreContent = Buffer | 'keep-current';

export interface FileProvider {
  status(path: string, options: StatusOptions): Promise<Current>;
  /** Reads a `source` file (symlinks followed: the source is not a managed path). */
  readSource(file: string): Promise<Buffer>;
  /** Atomically replaces the path with a regular file of this content and these attributes. */
  store(path: string, content: StoreContent, attrs: Attributes, replacing: Replacing, recursive: boolean): Promise<void>;
  /** Creates the directory with its attributes already set, replacing a file if there is one. */
  createDirectory(path: string, attrs: Attributes, replacing: 'nothing' | 'file'): Promise<void>;
  /** Sets an existing directory's attributes in place. */
  updateDirectory(path: string, attrs: Attributes): Promise<void>;
  remove(path: string, type: 'file' | 'directory' | 'link', recursive: boolean): Promise<void>;
  /**
   * Atomically makes the path a symbolic link to target (a new link renamed over what is there),
   * owned by owner and group when given.
   */
  createLink(path: string, target: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>, replacing: Replacing, recursive: boolean): Promise<void>;
  /** Sets a link's own owner and group (lchown), never its target's. */
  updateLink(path: string, owner: Partial<Pick<Attributes, 'uid' | 'gid'>>): Promise<void>;
  /** What an existing directory holds (never following a link at its path), for purge. */
  list(path: string): Promise<Listing>;
}

/** A directory's entries; other: a FIFO, socket or device, which purge leaves alone. */
export interface Listing {
  /** The directory's path with links on the way followed. */
  resolved: string;
  entries: { name: string; type: 'file' | 'directory' | 'link' | 'other' }[];
}
