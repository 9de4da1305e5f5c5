import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { listDirectory } from '../../src/shared/directory-listing.js';
import { tempDir } from '../support/tmp.js';

describe('listDirectory #once', () => {
  /** How many times the directory is really read while `body` runs. */
  function reads(body: () => void): number {
    const original = fs.readdirSync;
    let count = 0;
    (fs as { readdirSync: unknown }).readdirSync = (...args: Parameters<typeof fs.readdirSync>) => {
      count++;
      return original(...args);
    };
    try {
      body();
    } finally {
      fs.readdirSync = original;
    }
    return count;
  }

  it('reads a directory changed under a second ago every time: its stamp could still miss a change', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a'), '');
    expect(reads(() => {
      expect(listDirectory(dir)).to.deep.equal(['a']);
      expect(listDirectory(dir)).to.deep.equal(['a']);
    })).to.equal(2);
  });

  it('keeps the listing of a settled directory, and reads it again once an entry comes, goes or is renamed', async function () {
    this.timeout(10_000);
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'S01a'), '');
    await sleep(1100);
    expect(reads(() => {
      expect(listDirectory(dir)).to.deep.equal(['S01a']);
      expect(listDirectory(dir)).to.deep.equal(['S01a']);
    })).to.equal(1);
    fs.writeFileSync(path.join(dir, 'S02b'), '');
    expect([...listDirectory(dir)].sort()).to.deep.equal(['S01a', 'S02b']);
    fs.renameSync(path.join(dir, 'S02b'), path.join(dir, 'K02b'));
    expect([...listDirectory(dir)].sort()).to.deep.equal(['K02b', 'S01a']);
    fs.rmSync(path.join(dir, 'S01a'));
    expect(listDirectory(dir)).to.deep.equal(['K02b']);
  });

  it('reads a directory put in the place of the one it knew', async function () {
    this.timeout(10_000);
    const dir = tempDir();
    const other = tempDir();
    fs.writeFileSync(path.join(dir, 'old'), '');
    fs.writeFileSync(path.join(other, 'new'), '');
    await sleep(1100);
    expect(listDirectory(dir)).to.deep.equal(['old']);
    fs.rmSync(dir, { recursive: true });
    fs.renameSync(other, dir);
    expect(listDirectory(dir)).to.deep.equal(['new']);
  });

  it('throws as readdir does for a directory that is not there', () => {
    expect(() => listDirectory(path.join(tempDir(), 'none'))).to.throw(/ENOENT/);
  });
});
