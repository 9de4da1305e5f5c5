import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { posixProvider } from '../../../../src/runners/lib/file/posix.js';
import { runCommand } from '../../../../src/shared/process.js';
import { tempDir, writeFile } from '../../../support/tmp.js';
import { leftovers, sha256 } from '../../file/support.js';

const options = { checkEmpty: true, keepContentUpTo: 1024 };

describe('file runner posix provider #once', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('govern-file-posix-');
  });

  it('status: a regular file with its hash, attributes and (when small) its bytes', async () => {
    const f = writeFile(path.join(dir, 'f'), 'hello\n', 0o640);
    const status = await posixProvider.status(f, options);
    expect(status).to.deep.include({ type: 'file', size: 6, sha256: sha256('hello\n'), attrs: { uid: 0, gid: 0, mode: 0o640 } });
    expect(status.type === 'file' && status.content?.toString()).to.equal('hello\n');
    const large = await posixProvider.status(f, { ...options, keepContentUpTo: 5 });
    expect(large.type === 'file' && large.content).to.equal(undefined);
  });

  it('status: absent, with the state of the parent', async () => {
    expect(await posixProvider.status(path.join(dir, 'none'), options)).to.deep.equal({ type: 'absent', parent: 'directory' });
    expect(await posixProvider.status(path.join(dir, 'no', 'none'), options)).to.deep.equal({ type: 'absent', parent: 'missing' });
    const f = writeFile(path.join(dir, 'f'), 'x');
    expect(await posixProvider.status(path.join(f, 'none'), options)).to.deep.equal({ type: 'absent', parent: 'not-directory' });
  });

  it('status: directories (empty or not), symlinks and FIFOs', async () => {
    fs.mkdirSync(path.join(dir, 'empty'));
    writeFile(path.join(dir, 'full', 'x'), 'x');
    expect(await posixProvider.status(path.join(dir, 'empty'), options)).to.deep.include({ type: 'directory', empty: true });
    expect(await posixProvider.status(path.join(dir, 'full'), options)).to.deep.include({ type: 'directory', empty: false });
    expect(await posixProvider.status(path.join(dir, 'full'), { ...options, checkEmpty: false })).to.deep.include({ type: 'directory', empty: undefined });
    fs.symlinkSync('/etc/passwd', path.join(dir, 'link'));
    expect(await posixProvider.status(path.join(dir, 'link'), options)).to.deep.include({ type: 'symlink', target: '/etc/passwd' });
    expect((await runCommand('mkfifo', [path.join(dir, 'fifo')])).code).to.equal(0);
    expect(await posixProvider.status(path.join(dir, 'fifo'), options)).to.deep.equal({ type: 'other', kind: 'a FIFO' });
  });

  it('store: writes the content with its attributes, and copies the current bytes when content is not managed', async () => {
    const f = path.join(dir, 'f');
    await posixProvider.store(f, Buffer.from('one'), { uid: 0, gid: 0, mode: 0o600 }, 'nothing', false);
    expect(fs.readFileSync(f, 'utf8')).to.equal('one');
    await posixProvider.store(f, 'keep-current', { uid: 0, gid: 0, mode: 0o644 }, 'file', false);
    expect(fs.readFileSync(f, 'utf8')).to.equal('one');
    expect(fs.statSync(f).mode & 0o7777).to.equal(0o644);
    expect(leftovers(dir)).to.deep.equal([]);
  });

  it('store: when the path is no longer what the decision saw, an error, the temporary file removed, the path intact', async () => {
    // The decision saw nothing there ("nothing" to replace); a directory appeared meanwhile.
    const d = path.join(dir, 'd');
    writeFile(path.join(d, 'inside'), 'x');
    const error = await posixProvider.store(d, Buffer.from('new'), { uid: 0, gid: 0, mode: 0o644 }, 'nothing', false).catch((e) => e);
    expect(error.message).to.equal(`${d} changed type while govern was working on it; nothing was changed, run again`);
    expect(fs.readFileSync(path.join(d, 'inside'), 'utf8')).to.equal('x');
    expect(leftovers(dir)).to.deep.equal([]);
  });

  it('createDirectory: the same check, and its temporary directory removed', async () => {
    const f = writeFile(path.join(dir, 'f'), 'appeared');
    const error = await posixProvider.createDirectory(f, { uid: 0, gid: 0, mode: 0o755 }, 'nothing').catch((e) => e);
    expect(error.message).to.match(/changed type while govern was working on it/);
    expect(fs.readFileSync(f, 'utf8')).to.equal('appeared');
    expect(leftovers(dir)).to.deep.equal([]);
  });
});
