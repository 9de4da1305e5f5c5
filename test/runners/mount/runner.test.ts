// The real runners/mount in both runner modes: a tmpfs mounted on a directory of the test's own, with
// a table of the test's own (fstab = ...), unmounted after each test.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

const mountedOn = (dir: string) => fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => l.split(' ')[4] === dir);

for (const mode of MODES) {
  describe(`mount runner (${mode}, tmpfs) #once`, function () {
    this.timeout(60_000);
    let dir: string;
    let fstab: string;
    beforeEach(() => {
      const root = tempDir('govern-mount-');
      dir = path.join(root, 'point');
      fs.mkdirSync(dir);
      fstab = path.join(root, 'fstab');
      fs.writeFileSync(fstab, '# the test\'s table\n');
    });
    afterEach(() => {
      while (mountedOn(dir)) execFileSync('umount', [dir]);
    });
    const mount = (args: string[], env: Record<string, string> = {}) => callRunner('mount', mode, dir, [`fstab=${fstab}`, ...args], env);
    const tmpfs = (options: string) => ['device=govern-test', 'fstype=tmpfs', `options=${options}`];

    it('noop, mount and add, no change on the second run, remount when the options change, absent', async () => {
      const noop = await mount(tmpfs('size=1m'), { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have mounted ${dir}; Would have added ${dir} to ${fstab}` });
      expect(noop.diff).to.contain(`+govern-test\t${dir}\ttmpfs\tsize=1m\t0\t0`);
      expect(mountedOn(dir)).to.equal(false);
      expect(fs.readFileSync(fstab, 'utf8')).to.equal('# the test\'s table\n');

      expect(await mount(tmpfs('size=1m'))).to.include({ ok: true, changed: true, message: `mounted ${dir}; added ${dir} to ${fstab}` });
      expect(mountedOn(dir)).to.equal(true);
      expect(fs.readFileSync(fstab, 'utf8')).to.equal(`# the test's table\ngovern-test\t${dir}\ttmpfs\tsize=1m\t0\t0\n`);
      expect(await mount(tmpfs('size=1m'))).to.include({ ok: true, changed: false, message: `${dir} mounted; ${dir} in ${fstab}` });

      const remount = await mount(tmpfs('size=2m'));
      expect(remount).to.include({ ok: true, changed: true, message: `remounted ${dir} (options size=1m -> size=2m); changed ${dir} in ${fstab} (options size=1m -> size=2m)` });
      expect(fs.readFileSync('/proc/self/mountinfo', 'utf8')).to.match(/size=2048k/);

      expect(await mount(['ensure=unmounted', ...tmpfs('size=2m')])).to.include({ ok: true, changed: true, message: `unmounted ${dir}; ${dir} in ${fstab}` });
      expect(mountedOn(dir)).to.equal(false);
      expect(await mount(['ensure=absent'])).to.include({ ok: true, changed: true, message: `${dir} not mounted; removed ${dir} from ${fstab}` });
      expect(fs.readFileSync(fstab, 'utf8')).to.equal('# the test\'s table\n');
    });

    it('the mounted options checked too: a file system remounted read-only by hand is remounted as wanted', async () => {
      expect(await mount(tmpfs('size=1m'))).to.include({ ok: true, changed: true });
      execFileSync('mount', ['-o', 'remount,ro', dir]);
      const noop = await mount(tmpfs('size=1m'), { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have remounted ${dir} (mounted options ro -> rw); ${dir} in ${fstab}` });
      expect(await mount(tmpfs('size=1m'))).to.include({ ok: true, changed: true, message: `remounted ${dir} (mounted options ro -> rw); ${dir} in ${fstab}` });
      expect(await mount(tmpfs('size=1m'))).to.include({ ok: true, changed: false, message: `${dir} mounted; ${dir} in ${fstab}` });
    });

    it('another device mounted there is refused, and the table left as it was', async () => {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', '--', 'govern-other', dir]);
      const r = await mount(tmpfs('size=1m'));
      expect(r).to.include({ ok: false, message: `${dir} is mounted from govern-other, not from govern-test: unmount it first (ensure = "unmounted")` });
      expect(fs.readFileSync(fstab, 'utf8')).to.equal('# the test\'s table\n');
    });

    it('a file system image mounted (on a loop device mount(8) sets up, with or without loop): no change on the second run (skipped where no loop device can be attached)', async function () {
      if (!loopDeviceFree()) this.skip();
      for (const options of ['defaults', 'loop']) {
        const image = path.join(path.dirname(dir), `image-${options}`);
        fs.writeFileSync(image, Buffer.alloc(4 << 20));
        execFileSync('mkfs.ext2', ['-q', image]);
        const ext2 = ['device=' + image, 'fstype=ext2', `options=${options}`];
        expect(await mount(ext2), options).to.include({ ok: true, changed: true });
        expect(await mount(ext2), options).to.include({ ok: true, changed: false, message: `${dir} mounted; ${dir} in ${fstab}` });
        execFileSync('umount', [dir]);
      }
    });

    it('a mount point reached through a symbolic link is refused, before anything', async () => {
      const link = path.join(path.dirname(dir), 'link');
      fs.symlinkSync(dir, link);
      for (const name of [link, path.join(link, 'below')]) {
        const r = await callRunner('mount', mode, name, [`fstab=${fstab}`, ...tmpfs('size=1m')]);
        expect(r.ok).to.equal(false);
        expect(r.message).to.equal(`${name} is reached through a symbolic link (${link} is ${dir}): name the mount point by its real path, ${name.replace(link, dir)}`);
      }
      expect(mountedOn(dir)).to.equal(false);
      expect(fs.readFileSync(fstab, 'utf8')).to.equal('# the test\'s table\n');
    });

    it('a mount that fails leaves the table as it was', async () => {
      const r = await mount(['device=govern-test', 'fstype=govern-no-such-fs']);
      expect(r.ok).to.equal(false);
      expect(r.message).to.contain('mount -t govern-no-such-fs');
      expect(fs.readFileSync(fstab, 'utf8')).to.equal('# the test\'s table\n');
    });

    it('a device starting with # (or holding blanks) is escaped as fstab(5) says: findmnt reads the entry, not a comment', async () => {
      const device = '#not a comment';
      expect(await mount(['ensure=present', `device=${device}`, 'fstype=tmpfs'])).to.include({ ok: true, changed: true, message: `added ${dir} to ${fstab}` });
      expect(fs.readFileSync(fstab, 'utf8')).to.equal(`# the test's table\n\\043not\\040a\\040comment\t${dir}\ttmpfs\tdefaults\t0\t0\n`);
      const listed = JSON.parse(execFileSync('findmnt', ['--fstab', '--tab-file', fstab, '--json', '-o', 'SOURCE,TARGET'], { encoding: 'utf8' })) as { filesystems: unknown[] };
      expect(listed.filesystems).to.deep.equal([{ source: device, target: dir }]);
      expect(await mount(['ensure=present', `device=${device}`, 'fstype=tmpfs'])).to.include({ ok: true, changed: false });
    });

    it('bad input is refused before anything: required keys, values and did-you-mean', async () => {
      const r = await callRunner('mount', mode, 'relative', ['fstype=tmp fs', 'optoins=ro']);
      expect(r.ok).to.equal(false);
      expect(r.message).to.equal('name "relative" is not a clean absolute path on one line (it must start with "/"); unknown key "optoins" (did you mean "options"?); fstype "tmp fs" is not a file system type such as ext4 (character space is not allowed); device is required for ensure = "mounted"');
    });
  });
}

/** Whether mount(8) could attach an image here: a machine (or container) without loop devices cannot. */
function loopDeviceFree(): boolean {
  try {
    execFileSync('losetup', ['--find'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
