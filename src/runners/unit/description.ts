// What the unit runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/unit.md).
import type { RunnerDescription } from '../../shared/description.js';
import { UNIT_FILE_PATTERN } from '../../shared/systemd-unit.js';

export const description = {
  help: 'a systemd unit file or drop-in, written whole; one daemon-reload before the next service is checked',
  name: {
    type: 'string',
    pattern: UNIT_FILE_PATTERN,
    what: 'a unit file name (app.service, getty@.service, backup.timer) or a drop-in (app.service.d/limits.conf)',
    help: 'the file, under /etc/systemd/system (or the user\'s unit directory with scope = "user")',
  },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present (the file with this content), or absent' },
    content: { type: 'string', help: 'the whole file, inline' },
    contents: { type: 'string', help: 'the same, in the file runner\'s spelling; what `template` renders into' },
    source: {
      type: 'string',
      pattern: '.+',
      what: 'a non-empty path',
      help: 'a local file to copy; a relative path resolves against the directory of the state file (GOVERN_STATE_DIR)',
    },
    scope: { type: 'enum', values: ['system', 'user'], default: 'system', help: 'system: /etc/systemd/system; user: the calling user\'s $XDG_CONFIG_HOME/systemd/user (~/.config/systemd/user)' },
    show_diff: { type: 'boolean', default: true, help: 'give a unified diff when the content changes' },
  },
  rules: [
    { exclusive: ['content', 'contents', 'source'] },
    { only_when: { ensure: ['present'] }, keys: ['content', 'contents', 'source', 'show_diff'] },
  ],
  signals: ['refresh'],
  writes: [
    { path: '/etc/systemd/system/{name}', when: { scope: ['system'] } },
    // The user's unit directory, as the runner finds it: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user.
    { path: '{$XDG_CONFIG_HOME}/systemd/user/{name}', when: { scope: ['user'] } },
    { path: '~/.config/systemd/user/{name}', when: { scope: ['user'] } },
  ],
} as const satisfies RunnerDescription;
