// What the file runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/file.md).
import type { RunnerDescription } from '../../shared/description.js';
import { OWNER_ACCOUNT } from '../lib/accounts/names.js';
import { VALIDATE_KEY } from '../lib/file/validate-content.js';

export const description = {
  help: 'a file, directory or symbolic link: whether it exists, its content or target, owner, group and permissions',
  name: {
    type: 'path',
    clean: true,
    pattern: '/.+',
    what: 'a clean absolute path other than "/" (no "." or ".." component, no "//", no trailing "/")',
    help: 'the path',
  },
  keys: {
    ensure: { shown: true, type: 'enum', values: ['present', 'absent', 'directory', 'link'], required: true, help: 'present (a regular file), directory, link (a symbolic link), or absent' },
    contents: { type: 'string', help: 'the content, inline (rendered like the rest of the state file)' },
    source: {
      type: 'string',
      pattern: '.+',
      what: 'a non-empty path',
      help: 'a local file to copy, byte for byte (with recurse = true, a directory whose tree is copied); a relative path resolves against the directory of the state file (GOVERN_STATE_DIR)',
    },
    target: {
      type: 'string',
      pattern: '.+',
      what: 'a non-empty path',
      help: 'for a link: what it points to, absolute or relative to the link\'s directory, as ln -s takes it (not checked to exist)',
    },
    owner: { shown: true, ...OWNER_ACCOUNT, help: 'a user name, or a numeric uid' },
    group: { shown: true, ...OWNER_ACCOUNT, help: 'a group name, or a numeric gid' },
    mode: { shown: true, type: 'mode', max: 0o777, help: 'octal permissions (0644, 644, 0o755), at most 0777' },
    force: { shown: true, type: 'boolean', default: false, help: 'allow removing a non-empty directory (for absent, or to replace it with a file), and replacing a file or directory with a link' },
    validate: VALIDATE_KEY,
    backup: { shown: true, type: 'boolean', default: false, help: 'keep the content a change replaces, in VAR_DIR/backup/PATH/TIME (VAR_DIR: the run\'s --var-dir, /var/lib/govern; root only; the newest 5 per file; govern backups lists and restores them)' },
    recurse: {
      shown: true,
      type: 'boolean',
      default: false,
      help: 'copy the tree of a directory `source` into the directory: files with the resource\'s owner, group and mode, directories with search permission added where read is set, links as links (docs/file.md, "Recurse")',
    },
    purge: {
      shown: true,
      type: 'boolean',
      default: false,
      help: 'remove what the directory holds that no resource of the tree manages (an entry is managed when a resource names its path or a path below it, by its name, a path key or a file its runner writes); refused on top-level and system directories (docs/file.md, "Purge")',
    },
    show_diff: { shown: true, type: 'boolean', default: true, help: 'give a unified diff when an existing file\'s content changes; false for secrets' },
  },
  rules: [
    { exclusive: ['contents', 'source'] },
    { only_when: { ensure: ['present'] }, keys: ['contents', 'validate', 'backup'] },
    { only_when: { ensure: ['present', 'directory'] }, keys: ['source'] },
    { only_when: { ensure: ['directory'] }, keys: ['recurse'] },
    { when: { recurse: ['true'] }, require: ['source'] },
    // A source in the state tree is looked at while planning: one of the wrong kind is a mistake in the tree.
    { when: { ensure: ['directory'], recurse: ['true'] }, relative_paths: { source: 'directory' } },
    { when: { ensure: ['present'] }, relative_paths: { source: 'file' } },
    { when: { ensure: ['link'] }, require: ['target'] },
    { only_when: { ensure: ['directory'] }, keys: ['purge'] },
    { only_when: { ensure: ['link'] }, keys: ['target'] },
    // A symbolic link has no permissions of its own on Linux.
    { only_when: { ensure: ['present', 'directory', 'absent'] }, keys: ['mode', 'show_diff'] },
    // So that nothing is created with default or inherited permissions; an absent path has none.
    { when: { ensure: ['present', 'directory'] }, require: ['owner', 'group', 'mode'] },
  ],
  signals: ['refresh'],
  autorequire: [
    { runner: 'file', parent_of_name: true },
    // A path under a mount point after the mount: written before it, the file would be hidden under it.
    { runner: 'mount', parent_of_name: true },
    // The owner and group first; when they are being removed, the file first.
    { runner: 'user', key: 'owner', reverse_when_other: { ensure: ['absent'] } },
    { runner: 'group', key: 'group', reverse_when_other: { ensure: ['absent'] } },
    // A group no group resource makes may be the one useradd makes for the user of its name.
    { runner: 'user', key: 'group', reverse_when_other: { ensure: ['absent'] } },
  ],
} as const satisfies RunnerDescription;
