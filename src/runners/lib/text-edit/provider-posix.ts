// The edit runners' provider (ini, block): the edited file read with the one whole-file reader
// (never through a link, bounded), the edit validated on a temporary copy beside it, the old content
// backed up, the owner of a new file looked up, and the file replaced atomically (lib/file).
import type { ProviderContext } from '../../../shared/command-runner.js';
import { resolveAccount } from '../accounts/lookup.js';
import { backUp } from '../file/backup.js';
import { posixProvider } from '../file/posix.js';
import type { Attributes } from '../file/state.js';
import { validateContent } from '../file/validate-content.js';
import { readWhole, type WholeFileFound } from '../whole-file/provider-posix.js';
import type { EditTarget } from './keys.js';

export interface EditProvider {
  status(path: string): Promise<WholeFileFound>;
  /** `command` run on the new content in a temporary copy beside `path` (in noop mode too: nothing live). */
  validate(command: string, path: string, content: Buffer, noop: boolean): Promise<void>;
  /** The file's old content copied to the backup directory: where. */
  backUp(path: string): string;
  /** The owner and group a file the runner creates gets: those named, else the runner's own. */
  newOwner(newFile: EditTarget['newFile']): Promise<{ uid: number; gid: number }>;
  /** The file replaced atomically with this content and attributes; `existed`: a file is there. */
  store(path: string, content: Buffer, attrs: Attributes, existed: boolean): Promise<void>;
}

export function posixEditProvider(context: ProviderContext): EditProvider {
  return {
    status: (path) => readWhole(path, '; govern edits files up to that size'),
    validate: (command, path, content, noop) => validateContent(command, path, content, context, noop),
    backUp: (path) => backUp(path, context.env),
    async newOwner({ owner, group }) {
      const uid = owner ? (await resolveAccount('passwd', owner, context)).id : (process.getuid?.() ?? 0);
      const gid = group ? (await resolveAccount('group', group, context)).id : (process.getgid?.() ?? 0);
      return { uid, gid };
    },
    store: (path, content, attrs, existed) => posixProvider.store(path, content, attrs, existed ? 'file' : 'nothing', false),
  };
}
