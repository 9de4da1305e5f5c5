// What the sysctl runner accepts, declared once: govern checks state files against it, and the
// runner reads its arguments with it (docs/sysctl.md).
import type { RunnerDescription } from '../../shared/description.js';

export const description = {
  help: 'a kernel parameter: its live value (/proc/sys) and the value set at boot (a drop-in in /etc/sysctl.d)',
  name: {
    type: 'string',
    // Dot-separated components; a "/" inside one stands for a "." of the path, as sysctl(8) reads it
    // (net.ipv4.conf.eth0/100.rp_filter). No component starts with "/", so none becomes "." or "..".
    pattern: '[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_:@+-][A-Za-z0-9_/:@+-]*)+',
    what: 'a sysctl key such as net.ipv4.ip_forward',
    help: 'the key, in sysctl\'s dotted form',
  },
  keys: {
    value: { type: 'string', pattern: '[^\\n\\r]*\\S[^\\n\\r]*', what: 'one line of text, not empty', help: 'the value (several fields separated by spaces or tabs, as sysctl prints them); compared with runs of blanks as one space' },
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present; absent removes the drop-in (the live value is left as it is)' },
    apply: { type: 'boolean', default: true, help: 'set the live value in /proc/sys' },
    persist: { type: 'boolean', default: true, help: 'write the drop-in, so the value is set at boot' },
    file: {
      type: 'path',
      clean: true,
      pattern: '/.+\\.conf',
      what: 'a clean absolute path ending in .conf',
      help: 'the drop-in; by default /etc/sysctl.d/90-govern-KEY.conf (read after the distribution\'s 10-* to 50-* files); several keys may share one file, each managing its own line',
    },
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['value'] },
    { only_when: { ensure: ['present'] }, keys: ['value', 'apply'] },
  ],
  signals: ['refresh'],
  // Resources sharing a drop-in each edit their own line of it: one after the other, never at once.
  autorequire: [
    { runner: 'file', key: 'file' },
    { runner: 'sysctl', same_key: 'file' },
  ],
  // The default drop-in (properties.ts); a `file` given is a path key, kept as such.
  writes: [{ path: '/etc/sysctl.d/90-govern-{name|slash_to_dot}.conf' }],
} as const satisfies RunnerDescription;
