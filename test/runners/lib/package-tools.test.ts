import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { lockFile, privateLockDir } from '../../../src/runners/lib/package-tools.js';
import { DEFAULT_LOCK_DIR, lockDir } from '../../../src/shared/lock-dir.js';
import { tempDir } from '../../support/tmp.js';

describe('the package lock\'s directory #once', () => {
  it('is a private directory, not the world-writable /var/lock', () => {
    expect(lockDir({})).to.equal(DEFAULT_LOCK_DIR);
    expect(DEFAULT_LOCK_DIR.startsWith('/var/lock') || DEFAULT_LOCK_DIR.startsWith('/run/lock') || DEFAULT_LOCK_DIR.startsWith('/tmp')).to.equal(false);
  });

  it('is GOVERN_LOCK_DIR when set (the suite sets its own), which must be an absolute path', () => {
    expect(path.dirname(lockFile())).to.equal(process.env.GOVERN_LOCK_DIR);
    expect(lockDir({ GOVERN_LOCK_DIR: '/srv/locks/' })).to.equal('/srv/locks');
    expect(() => lockDir({ GOVERN_LOCK_DIR: 'locks' })).to.throw(/GOVERN_LOCK_DIR must be an absolute path, not "locks"/);
  });

  it('is created 0700 when missing', () => {
    const dir = path.join(tempDir(), 'govern');
    privateLockDir(dir);
    expect(fs.statSync(dir).mode & 0o777).to.equal(0o700);
    privateLockDir(dir); // and accepted as it is next time
  });

  it('is refused when others can write it, or when it is a symlink', () => {
    const open = path.join(tempDir(), 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o1777);
    expect(() => privateLockDir(open)).to.throw(/refusing the lock directory/);
    const target = tempDir();
    const link = path.join(tempDir(), 'link');
    fs.symlinkSync(target, link);
    expect(() => privateLockDir(link)).to.throw(/refusing the lock directory/);
  });
});
