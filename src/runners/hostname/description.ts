// What the hostname runner accepts, declared once (docs/hostname.md).
import type { RunnerDescription } from '../../shared/description.js';

export const description = {
  help: 'the host name as set at boot (/etc/hostname)',
  name: { type: 'string', pattern: '[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?', what: 'a host name label (RFC 1123)', help: 'the host name' },
  keys: {
    file: { type: 'path', clean: true, default: '/etc/hostname', help: 'the file read at boot' },
  },
  signals: ['refresh'],
} as const satisfies RunnerDescription;
