// What the archive runner accepts, declared once: govern checks state files against it, and the
// runner reads its arguments with it (docs/archive.md).
import type { RunnerDescription } from '../../shared/description.js';
import { OWNER_ACCOUNT } from '../lib/accounts/names.js';
import { PLACED_OWNED } from '../lib/file/placed.js';

export const description = {
  help: 'an archive (tar.gz, tar.xz, tar, zip) extracted into a directory, its sha256 checked first',
  name: { type: 'path', clean: true, pattern: '/.+', what: 'a clean absolute path, not /', help: 'the directory the archive is extracted into (replaced whole)' },
  keys: {
    source: {
      type: 'string',
      pattern: '(?:https?://[^\\s]+|/[^\\n\\r]*)',
      what: 'an http:// or https:// URL, or an absolute path',
      required: true,
      help: 'where the archive is: a URL, or a file on this host',
    },
    sha256: { type: 'string', pattern: '[0-9a-fA-F]{64}', what: '64 hexadecimal digits', required: true, help: 'the archive\'s SHA-256, checked before anything is extracted; another one re-extracts' },
    format: { type: 'enum', values: ['tar.gz', 'tar.xz', 'tar', 'zip'], help: 'the archive\'s format; by default from the source\'s name (.tar.gz, .tgz, .tar.xz, .txz, .tar, .zip)' },
    ca_file: { type: 'path', clean: true, what: 'a clean absolute path', help: 'https: the CA certificates to trust instead of Node\'s own' },
    owner: { ...OWNER_ACCOUNT, help: 'the owner of everything extracted (by default the archive\'s modes, owned by root)' },
    group: { ...OWNER_ACCOUNT, help: 'the group of everything extracted' },
    creates: { type: 'path', clean: true, what: 'a clean absolute path', help: 'skip the archive entirely when this path exists' },
  },
  signals: ['refresh'],
  autorequire: PLACED_OWNED,
} as const satisfies RunnerDescription;
