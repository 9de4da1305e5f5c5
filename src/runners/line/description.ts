// What the line runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/line.md).
import type { RunnerDescription } from '../../shared/description.js';
import { VALIDATE_KEY } from '../lib/file/validate-content.js';
import { PATH_KEY } from '../lib/text-edit/keys.js';

export const description = {
  help: 'one line in a text file that something else owns: present (added, or replacing the lines a regular expression matches) or absent',
  keys: {
    path: PATH_KEY,
    line: {
      type: 'string',
      pattern: '[^\\n\\r]*',
      what: 'one line of text (no line break)',
      required: true,
      help: 'the line, without its line break',
    },
    match: { type: 'regex', help: 'the lines to replace (present) or remove (absent), a regular expression tested against each line without its line break' },
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present, or absent: every line matching `match` (or, without it, equal to `line`) is removed' },
    // Not `after`: that key orders resources, for every runner.
    insert_after: { type: 'regex', help: 'where a new line goes: after the last line this regular expression matches (none matches: at the end of the file)' },
    create: { type: 'boolean', default: false, help: 'create a missing file (owned by root, mode 0644) holding the line; false: a missing file is an error' },
    validate: VALIDATE_KEY,
    multiple: { type: 'boolean', default: false, help: 'replace every line matching `match`; false: several lines matching it is an error' },
  },
  rules: [
    { only_when: { ensure: ['present'] }, keys: ['insert_after', 'create', 'multiple'] },
  ],
  signals: ['refresh'],
  autorequire: [
    // The file resource that manages the path (its owner, mode, or existence) first.
    { runner: 'file', key: 'path' },
    // Each line reads what the one before it wrote: two lines of one file never run at once.
    { runner: 'line', same_key: 'path' },
  ],
} as const satisfies RunnerDescription;
