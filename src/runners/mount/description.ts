// What the mount runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/mount.md).
import type { RunnerDescription } from '../../shared/description.js';

const IN_FSTAB = ['mounted', 'unmounted', 'present'];

export const description = {
  help: 'a file system: its /etc/fstab entry and whether it is mounted',
  name: {
    type: 'path',
    clean: true,
    pattern: '/[^\\n\\r]*',
    what: 'a clean absolute path on one line',
    help: 'the mount point',
  },
  keys: {
    ensure: {
      type: 'enum',
      values: ['mounted', 'unmounted', 'present', 'absent'],
      default: 'mounted',
      help: 'mounted: in fstab and mounted; unmounted: in fstab, not mounted; present: in fstab, mounted or not; absent: unmounted and out of fstab',
    },
    device: { type: 'string', pattern: '[^\\n\\r]*\\S[^\\n\\r]*', what: 'one line of text, not empty', help: 'what is mounted: /dev/sdb1, UUID=..., LABEL=..., server:/export, tmpfs' },
    fstype: { type: 'string', chars: 'A-Za-z0-9._+-', what: 'a file system type such as ext4', help: 'the file system type (ext4, xfs, nfs, tmpfs)' },
    options: { type: 'string', pattern: '[^\\s,]+(?:,[^\\s,]+)*', what: 'options separated by commas, without blanks', default: 'defaults', help: 'the mount options, as fstab(5) writes them' },
    dump: { type: 'integer', min: 0, max: 9, default: 0, help: 'fstab\'s fifth field (dump(8))' },
    pass: { type: 'integer', min: 0, max: 9, default: 0, help: 'fstab\'s sixth field: the order fsck checks it at boot (0: never)' },
    fstab: { type: 'path', clean: true, default: '/etc/fstab', help: 'the file system table to write' },
  },
  rules: [
    { when: { ensure: IN_FSTAB }, require: ['device', 'fstype'] },
    { only_when: { ensure: IN_FSTAB }, keys: ['device', 'fstype', 'options', 'dump', 'pass'] },
  ],
  signals: ['refresh'],
  // The mount point's directory first; when it is being removed, the unmount first (a mounted directory is busy).
  autorequire: [{ runner: 'file', name_or_parent: true, reverse_when_other: { ensure: ['absent'] } }],
} as const satisfies RunnerDescription;
