// The mount decision table (docs/mount.md), row by row, and the fstab lines it writes.
import { expect } from 'chai';
import { decideMount, mountMessage, type Mounted } from '../../../src/runners/mount/decide.js';
import { optionsNotMet } from '../../../src/runners/mount/live-options.js';
import { escapeField, parseFstabLine, planFstab, unescapeField, type FstabEntry } from '../../../src/runners/mount/fstab.js';
import type { MountProperties } from '../../../src/runners/mount/properties.js';

const entry: FstabEntry = { device: 'tmpfs', dir: '/srv/x', fstype: 'tmpfs', options: 'size=1m', dump: '0', pass: '0' };
const want = (over: Partial<MountProperties> = {}): MountProperties => ({ dir: '/srv/x', ensure: 'mounted', entry, fstab: '/etc/fstab', ...over });
const TABLE = '# /etc/fstab\nUUID=1 / ext4 errors=remount-ro 0 1\n';
const LISTED = `${TABLE}tmpfs\t/srv/x\ttmpfs\tsize=1m\t0\t0\n`;
const up: Mounted = { device: 'tmpfs', fstype: 'tmpfs', options: 'rw,size=1024k' };
const row = (p: MountProperties, text: string, mounted: Mounted | undefined) => {
  const plan = decideMount(p, text, mounted);
  return [plan.changed, plan.action, plan.fstab.change, mountMessage(plan, false), mountMessage(plan, true)];
};

describe('mount decision #once', () => {
  it('mounted and listed: nothing', () => {
    expect(row(want(), LISTED, up)).to.deep.equal([false, undefined, 'none', '/srv/x mounted; /srv/x in /etc/fstab', '/srv/x mounted; /srv/x in /etc/fstab']);
  });

  it('neither: mount and add the entry, and noop says both', () => {
    const [changed, action, change, , noop] = row(want(), TABLE, undefined);
    expect([changed, action, change, noop]).to.deep.equal([true, 'mount', 'added', 'Would have mounted /srv/x; Would have added /srv/x to /etc/fstab']);
    expect(decideMount(want(), TABLE, undefined).fstab.text).to.equal(LISTED);
  });

  it('other options in the entry: rewritten in place, and a mounted file system remounted', () => {
    const plan = decideMount(want({ entry: { ...entry, options: 'size=2m' } }), `${LISTED}# last\n`, up);
    expect([plan.action, mountMessage(plan, false)]).to.deep.equal(['remount', 'remounted /srv/x (options size=1m -> size=2m); changed /srv/x in /etc/fstab (options size=1m -> size=2m)']);
    expect(plan.fstab.text).to.equal(`${TABLE}tmpfs\t/srv/x\ttmpfs\tsize=2m\t0\t0\n# last\n`);
  });

  it('another pass only: the entry changes, no remount', () => {
    expect(row(want({ entry: { ...entry, pass: '2' } }), LISTED, up).slice(1, 4)).to.deep.equal([undefined, 'changed', '/srv/x mounted; changed /srv/x in /etc/fstab (pass 0 -> 2)']);
  });

  it('another file system type mounted there is an error', () => {
    expect(() => row(want(), LISTED, { ...up, fstype: 'ext4', device: '/dev/sdb1' })).to.throw('/srv/x is mounted from /dev/sdb1 (ext4), not a tmpfs file system');
  });

  it('unmounted: unmounts and keeps the entry; present: the entry alone', () => {
    expect(row(want({ ensure: 'unmounted' }), LISTED, up).slice(0, 4)).to.deep.equal([true, 'unmount', 'none', 'unmounted /srv/x; /srv/x in /etc/fstab']);
    expect(row(want({ ensure: 'present' }), TABLE, undefined).slice(0, 4)).to.deep.equal([true, undefined, 'added', 'added /srv/x to /etc/fstab']);
  });

  it('absent: unmounts and removes every entry of the mount point', () => {
    const plan = decideMount(want({ ensure: 'absent', entry: undefined }), `${LISTED}tmpfs /srv/x tmpfs ro 0 0\n`, up);
    expect([plan.action, plan.fstab.text, mountMessage(plan, true)]).to.deep.equal(['unmount', TABLE, 'Would have unmounted /srv/x; Would have removed /srv/x from /etc/fstab']);
    expect(row(want({ ensure: 'absent', entry: undefined }), TABLE, undefined).slice(0, 4)).to.deep.equal([false, undefined, 'none', '/srv/x not mounted; /srv/x not in /etc/fstab']);
  });

  it('a later duplicate entry is removed, the first kept in place', () => {
    const plan = planFstab(`${LISTED}tmpfs /srv/x tmpfs ro 0 0\n`, '/srv/x', entry);
    expect([plan.change, plan.differences, plan.text]).to.deep.equal(['changed', ['1 more entry removed'], LISTED]);
  });

  it('reads and writes fstab\'s octal escapes', () => {
    expect(escapeField('/mnt/my disk\\x')).to.equal('/mnt/my\\040disk\\134x');
    expect(unescapeField('/mnt/my\\040disk')).to.equal('/mnt/my disk');
    expect(parseFstabLine('LABEL=a\\040b /mnt/my\\040disk ext4')).to.deep.equal({ device: 'LABEL=a b', dir: '/mnt/my disk', fstype: 'ext4', options: 'defaults', dump: '0', pass: '0' });
    expect(parseFstabLine('  # comment')).to.equal(undefined);
  });
});

describe('mount decision against the mounted file system #once', () => {
  it('the table as wanted, the mounted options not: remounted, and the message says which', () => {
    const plan = decideMount(want({ entry: { ...entry, options: 'size=2m,nodev' } }), LISTED.replace('size=1m', 'size=2m,nodev'), up);
    expect([plan.action, plan.fstab.change, mountMessage(plan, true)]).to.deep.equal([
      'remount',
      'none',
      'Would have remounted /srv/x (mounted options dev -> nodev, size=1024k -> size=2m); /srv/x in /etc/fstab',
    ]);
  });

  it('read-only where the entry says nothing: rw is what it means', () => {
    expect(decideMount(want(), LISTED, { ...up, options: 'ro,relatime,ro,size=1024k' }).parts[0]).to.equal('remounted /srv/x (mounted options ro -> rw)');
  });

  it('the same options in the kernel\'s words, or options it does not show: nothing', () => {
    const e = { ...entry, options: 'defaults,size=1024k,mode=01777,nofail,x-systemd.automount,uid=app,noatime' };
    const shown: Mounted = { ...up, options: 'rw,noatime,rw,size=1024k,mode=1777,uid=1000' };
    expect(decideMount(want({ entry: e }), LISTED.replace('size=1m', e.options), shown).changed).to.equal(false);
  });

  it('another device mounted there is an error; a device that cannot be known here, or a bind mount, is not compared', () => {
    expect(() => decideMount(want(), LISTED, { ...up, device: 'other' }, 'tmpfs')).to.throw('/srv/x is mounted from other, not from tmpfs: unmount it first (ensure = "unmounted")');
    expect(decideMount(want(), LISTED, up, undefined).changed).to.equal(false);
    const bind = { ...entry, device: '/srv/data', fstype: 'none', options: 'bind' };
    expect(decideMount(want({ entry: bind }), `${TABLE}/srv/data\t/srv/x\tnone\tbind\t0\t0\n`, { ...up, fstype: 'none', device: '/dev/sda1' }, '/srv/data').changed).to.equal(false);
    const loop = { ...entry, device: '/srv/disk.img', fstype: 'ext2', options: 'loop=/dev/loop7' };
    expect(decideMount(want({ entry: loop }), `${TABLE}/srv/disk.img\t/srv/x\text2\tloop=/dev/loop7\t0\t0\n`, { ...up, fstype: 'ext2', device: '/dev/loop7', options: 'rw' }, '/srv/disk.img').changed).to.equal(false);
  });
});

describe('mount options compared with what the kernel shows #once', () => {
  it('flags, sizes and modes', () => {
    expect(optionsNotMet('defaults', 'rw,nosuid,rw')).to.deep.equal([]);
    expect(optionsNotMet('ro,noexec', 'rw,rw')).to.deep.equal(['rw -> ro', 'exec -> noexec']);
    expect(optionsNotMet('exec,relatime', 'rw,noexec,rw')).to.deep.equal(['noexec -> exec', 'no relatime -> relatime']);
    expect(optionsNotMet('size=1g,mode=755', 'rw,size=1048576k,mode=755')).to.deep.equal([]);
    expect(optionsNotMet('size=50%,errors=remount-ro', 'rw,size=1024k,errors=continue')).to.deep.equal(['errors=continue -> errors=remount-ro']);
  });
});
