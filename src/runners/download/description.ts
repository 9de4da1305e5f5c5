// What the download runner accepts, declared once: govern checks state files against it, and the
// runner reads its arguments with it (docs/download.md).
import type { RunnerDescription } from '../../shared/description.js';
import { PLACED_OWNED } from '../lib/file/placed.js';
import { EDIT_KEYS } from '../lib/text-edit/keys.js';

/** A bound on what one download may be: more is an error, and nothing is written. */
export const DEFAULT_MAX_SIZE = 512 * 1024 * 1024;

export const description = {
  help: 'a file downloaded from a URL and checked against its checksum, fetched again only when the file no longer matches',
  name: {
    type: 'path',
    clean: true,
    pattern: '/.+',
    what: 'a clean absolute path other than "/" (no "." or ".." component, no "//", no trailing "/")',
    help: 'the file',
  },
  keys: {
    url: { type: 'string', pattern: 'https?://[^\\s]+', what: 'an http:// or https:// URL (no spaces)', help: 'where the file is (present: required); redirects are followed' },
    checksum: {
      type: 'string',
      pattern: 'sha256:[0-9a-fA-F]{64}',
      what: 'sha256: and 64 hexadecimal digits',
      help: 'the file\'s SHA-256 (present: required): a file that matches is not fetched again, a download that does not is an error and nothing is written',
    },
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present: the file holds what the checksum names; absent: the file removed' },
    owner: { ...EDIT_KEYS.owner, help: 'the file\'s owner (a user name or a numeric uid); not given: root for a new file, an existing file keeps its own' },
    group: { ...EDIT_KEYS.group, help: 'the file\'s group (a group name or a numeric gid); not given: root for a new file, an existing file keeps its own' },
    mode: { type: 'mode', max: 0o7777, help: 'the file\'s permissions (0755 for a program); not given: 0644 for a new file, an existing file keeps its own' },
    max_size: { type: 'integer', min: 1, default: DEFAULT_MAX_SIZE, help: 'the most bytes the download may have; a larger one is an error and nothing is written' },
    timeout: { type: 'duration', default: '300s', help: 'how long the download may take, from the request to the last byte' },
    backup: EDIT_KEYS.backup,
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['url', 'checksum'] },
    { only_when: { ensure: ['present'] }, keys: ['url', 'checksum', 'owner', 'group', 'mode', 'max_size', 'timeout'] },
  ],
  signals: ['refresh'],
  autorequire: PLACED_OWNED,
} as const satisfies RunnerDescription;
