// What a file resource asks for (Desired), as the file runner's layers pass it to each other; what is
// on disk (Current) is the file library's (src/runners/lib/file/state.ts).
import type { Account } from '../lib/accounts/lookup.js';

export type Ensure = 'present' | 'absent' | 'directory' | 'link';

export interface DesiredContent {
  bytes: Buffer;
  sha256: string;
  /** Where it came from, for messages: "contents" or the source file's path. */
  origin: string;
}

export interface Desired {
  path: string;
  ensure: Ensure;
  /** Required for present and directory; unused for absent. */
  owner?: Account;
  group?: Account;
  mode?: number;
  /** Absent: the content of an existing file is not managed (a new file is empty). */
  content?: DesiredContent;
  /** ensure = "link": what the link points to, as `ln -s` takes it (absolute or relative). */
  linkTarget?: string;
  force: boolean;
  showDiff: boolean;
}
