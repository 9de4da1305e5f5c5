// What the hostname runner accepts, declared once: govern checks state files against it, and the
// runner reads its arguments with it (docs/hostname.md).
import type { RunnerDescription } from '../../shared/description.js';

export const description = {
  help: 'the host\'s name: the kernel\'s (what `hostname` prints now) and /etc/hostname (the name at boot)',
  name: {
    type: 'string',
    // RFC 1123 labels joined by dots, at most 64 characters (the kernel's HOST_NAME_MAX): nothing
    // a shell, a path or a terminal could read as more than a name.
    pattern: '(?=.{1,64}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*',
    what: 'a host name such as web1 or web1.example.com (letters, digits and hyphens in dot-separated labels, at most 64 characters)',
    help: 'the name, short or fully qualified, written as given',
  },
  keys: {
    ensure: { type: 'enum', values: ['present'], default: 'present', help: 'present (a host always has a name: there is no absent)' },
    apply: { type: 'boolean', default: true, help: 'set the kernel\'s name now (/proc/sys/kernel/hostname)' },
    persist: { type: 'boolean', default: true, help: 'write the name file, so the host has the name at boot' },
    file: { type: 'path', clean: true, pattern: '/.+', what: 'a clean absolute path', default: '/etc/hostname', help: 'the name file read at boot' },
  },
  rules: [],
  signals: ['refresh'],
  autorequire: [{ runner: 'file', key: 'file' }],
  writes: [{ path: '/etc/hostname' }],
} as const satisfies RunnerDescription;
