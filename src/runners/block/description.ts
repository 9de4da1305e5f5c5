// What the block runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/block.md).
import type { RunnerDescription } from '../../shared/description.js';
import { EDIT_KEYS, PATH_KEY } from '../lib/text-edit/keys.js';

export const description = {
  help: 'lines between two marker comments in a text file that something else owns: inserted, replaced whole when they change, or removed',
  name: { type: 'string', pattern: '[^\\n\\r]+', what: 'one line of text (no line break)', help: 'the block\'s name, in its markers: # BEGIN govern NAME, # END govern NAME' },
  keys: {
    path: PATH_KEY,
    content: { type: 'string', help: 'the lines of the block, without the markers (a last line break is added when missing; empty: the block is removed, as Ansible\'s blockinfile)' },
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present, or absent: the block and its markers removed' },
    insert_after: { type: 'regex', help: 'where a new block goes: after the first line this regular expression matches, or at the end when none does; "EOF": at the end (the default)' },
    insert_before: { type: 'regex', help: 'where a new block goes: before the first line this regular expression matches, or at the end when none does; "BOF": at the beginning' },
    marker_prefix: { type: 'string', pattern: '[^\\n\\r]+', what: 'one line of text (no line break)', default: '#', help: 'what the marker lines start with: the file\'s comment (#, ;, //)' },
    create: { type: 'boolean', default: false, help: 'create a missing file holding the block (as Ansible\'s blockinfile); false: a missing file is an error' },
    ...EDIT_KEYS,
  },
  rules: [
    { exclusive: ['insert_after', 'insert_before'] },
    { when: { ensure: ['present'] }, require: ['content'] },
    { only_when: { ensure: ['present'] }, keys: ['content', 'insert_after', 'insert_before', 'create', 'owner', 'group', 'mode'] },
  ],
  signals: ['refresh'],
  autorequire: [
    // The file resource that manages the path (its owner, mode, or existence) first.
    { runner: 'file', key: 'path' },
  ],
} as const satisfies RunnerDescription;
