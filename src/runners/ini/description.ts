// What the ini runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/ini.md).
import type { RunnerDescription } from '../../shared/description.js';
import { EDIT_KEYS, PATH_KEY } from '../lib/text-edit/keys.js';

export const description = {
  help: 'a key in an ini file: its value in a section (or before the first section), or no such key; every other line kept as it is',
  keys: {
    path: PATH_KEY,
    section: { type: 'string', pattern: '[^\\]\\n\\r]+', what: 'a section name (no "]", no line break)', help: 'the section, without its brackets; not given: the keys before the first section' },
    key: {
      type: 'string',
      pattern: '[^\\s=#;\\[]([^=\\n\\r]*[^\\s=])?',
      what: 'a key name (no "=" or line break, not starting with #, ; or [, no space at either end)',
      required: true,
      help: 'the key',
    },
    value: { type: 'string', pattern: '[^\\n\\r]*', what: 'one line of text (no line break)', help: 'its value (present: required)' },
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present: the key holds the value (one line, duplicates removed); absent: every line of the key in the section removed' },
    no_extra_spaces: { type: 'boolean', default: false, help: 'write key=value rather than key = value' },
    create: { type: 'boolean', default: true, help: 'create a missing file (as Ansible\'s ini_file); false: a missing file is an error' },
    ...EDIT_KEYS,
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['value'] },
    { only_when: { ensure: ['present'] }, keys: ['value', 'no_extra_spaces', 'create', 'owner', 'group', 'mode'] },
  ],
  signals: ['refresh'],
  autorequire: [
    // The file resource that manages the path (its owner, mode, or existence) first.
    { runner: 'file', key: 'path' },
  ],
} as const satisfies RunnerDescription;
