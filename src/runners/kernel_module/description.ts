// What the kernel_module runner accepts, declared once: govern checks state files against it, and
// the runner reads its arguments with it (docs/kernel_module.md).
import type { RunnerDescription } from '../../shared/description.js';

export const description = {
  help: 'a kernel module: loaded now (modprobe) and at boot (a file in /etc/modules-load.d)',
  name: {
    type: 'string',
    pattern: '[A-Za-z0-9_][A-Za-z0-9_-]*',
    what: 'a kernel module name such as br_netfilter',
    help: 'the module, as modprobe names it',
  },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present: loaded and listed for boot; absent: unloaded and the file removed' },
    load: { type: 'boolean', default: true, help: 'load (absent: unload) the module now with modprobe' },
    persist: { type: 'boolean', default: true, help: 'list the module in its file, so systemd-modules-load loads it at boot' },
    file: {
      type: 'path',
      clean: true,
      pattern: '/.+\\.conf',
      what: 'a clean absolute path ending in .conf',
      help: 'the file listing the module; by default /etc/modules-load.d/govern-NAME.conf',
    },
  },
  signals: ['refresh'],
  autorequire: [{ runner: 'file', key: 'file' }],
  // The default file (properties.ts); a `file` given is a path key, kept as such.
  writes: [{ path: '/etc/modules-load.d/govern-{name}.conf' }],
} as const satisfies RunnerDescription;
