// The real `runners/file` executable against a temporary directory, as root.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../../src/shared/process.js';
import { installToTempPrefix, type TempInstall } from '../../support/install.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { fileRunner as file, leftovers, modeOf, ROOT_ATTRS, sha256, snapshot, TestAccount } from './support.js';
import { hostExclusive } from '../../support/host-lock.js';

const ATTRS_0644 = [...ROOT_ATTRS, 'mode=0644'];

describe('file runner (the real executable) #once', () => {
  hostExclusive();
  let dir: string;
  beforeEach(() => {
    dir = tempDir('govern-file-');
  });

  it('works when called by hand: runners/file PATH ensure=present contents=hi owner=root group=root mode=0644', async () => {
    const target = path.join(dir, 'x');
    const args = ['ensure=present', 'contents=hi', 'owner=root', 'group=root', 'mode=0644'];
    const first = await file(target, args);
    expect(first).to.include({ code: 0, changed: true, message: 'created the file' });
    expect(fs.readFileSync(target, 'utf8')).to.equal('hi');
    const st = fs.statSync(target);
    expect([st.uid, st.gid, st.mode & 0o7777]).to.deep.equal([0, 0, 0o644]);
    expect(await file(target, args)).to.include({ code: 0, changed: false, message: 'file up to date' });
  });

  describe('the decision table, row by row', () => {
    it('absent | absent -> nothing', async () => {
      const target = path.join(dir, 'none');
      expect(await file(target, ['ensure=absent'])).to.include({ code: 0, changed: false, message: 'already absent' });
      expect(fs.existsSync(target)).to.equal(false);
    });

    it('absent | present -> removes the file', async () => {
      const target = writeFile(path.join(dir, 'f'), 'x');
      expect(await file(target, ['ensure=absent'])).to.include({ code: 0, changed: true, message: 'removed the file' });
      expect(fs.existsSync(target)).to.equal(false);
    });

    it('absent | directory -> removes an empty directory', async () => {
      const target = path.join(dir, 'd');
      fs.mkdirSync(target);
      expect(await file(target, ['ensure=absent'])).to.include({ code: 0, changed: true, message: 'removed the directory' });
      expect(fs.existsSync(target)).to.equal(false);
    });

    it('absent | non-empty directory -> refuses without force = true, removes everything with it (never following symlinks inside)', async () => {
      const target = path.join(dir, 'd');
      writeFile(path.join(target, 'sub', 'f'), 'x');
      const outside = writeFile(path.join(dir, 'outside', 'keep'), 'keep me');
      fs.symlinkSync(path.join(dir, 'outside'), path.join(target, 'link'));
      const refused = await file(target, ['ensure=absent']);
      expect(refused.code).to.equal(1);
      expect(refused.message).to.equal(`${target} is a non-empty directory; set force = true to remove it and everything in it`);
      expect(fs.existsSync(path.join(target, 'sub', 'f'))).to.equal(true);
      expect(await file(target, ['ensure=absent', 'force=true'])).to.include({ code: 0, changed: true, message: 'removed the directory' });
      expect(fs.existsSync(target)).to.equal(false);
      expect(fs.readFileSync(outside, 'utf8')).to.equal('keep me');
    });

    it('directory | directory with matching attributes -> nothing', async () => {
      const target = path.join(dir, 'd');
      fs.mkdirSync(target);
      fs.chmodSync(target, 0o750);
      const before = snapshot(dir);
      expect(await file(target, ['ensure=directory', ...ROOT_ATTRS, 'mode=0750'])).to.include({ code: 0, changed: false, message: 'directory up to date' });
      expect(snapshot(dir)).to.deep.equal(before);
    });

    it('directory | absent -> creates the directory with its attributes', async () => {
      const target = path.join(dir, 'd');
      expect(await file(target, ['ensure=directory', ...ROOT_ATTRS, 'mode=0750'])).to.include({ code: 0, changed: true, message: 'created directory' });
      expect(fs.lstatSync(target).isDirectory()).to.equal(true);
      expect(modeOf(target)).to.equal(0o750);
      expect(leftovers(dir)).to.deep.equal([]);
    });

    it('directory | present -> replaces the file with a directory', async () => {
      const target = writeFile(path.join(dir, 'd'), 'was a file');
      expect(await file(target, ['ensure=directory', ...ROOT_ATTRS, 'mode=0755'])).to.include({ code: 0, changed: true, message: 'replaced the file with a directory' });
      expect(fs.lstatSync(target).isDirectory()).to.equal(true);
      expect(modeOf(target)).to.equal(0o755);
      expect(leftovers(dir)).to.deep.equal([]);
    });

    it('directory | directory with wrong attributes -> updates them in place, keeping what is inside', async () => {
      const target = path.join(dir, 'd');
      writeFile(path.join(target, 'inside'), 'kept');
      fs.chmodSync(target, 0o700);
      const ino = fs.lstatSync(target).ino;
      expect(await file(target, ['ensure=directory', ...ROOT_ATTRS, 'mode=0755'])).to.include({ code: 0, changed: true, message: 'changed mode 0700 -> 0755' });
      expect(modeOf(target)).to.equal(0o755);
      expect(fs.lstatSync(target).ino).to.equal(ino);
      expect(fs.readFileSync(path.join(target, 'inside'), 'utf8')).to.equal('kept');
    });

    it('present | present with matching content and attributes -> nothing, the file untouched', async () => {
      const target = writeFile(path.join(dir, 'f'), 'same\n', 0o644);
      const before = snapshot(dir);
      expect(await file(target, ['ensure=present', 'contents=same\n', ...ATTRS_0644])).to.include({ code: 0, changed: false, message: 'file up to date' });
      expect(snapshot(dir)).to.deep.equal(before);
    });

    it('present | absent -> stores the file', async () => {
      const target = path.join(dir, 'f');
      expect(await file(target, ['ensure=present', 'contents=new\n', ...ROOT_ATTRS, 'mode=0600'])).to.include({ code: 0, changed: true, message: 'created the file' });
      expect(fs.readFileSync(target, 'utf8')).to.equal('new\n');
      expect(modeOf(target)).to.equal(0o600);
      expect(leftovers(dir)).to.deep.equal([]);
    });

    it('present | present with wrong content -> stores the new content and answers a unified diff', async () => {
      const target = writeFile(path.join(dir, 'f'), 'one\ntwo\nthree\n');
      const r = await file(target, ['ensure=present', 'contents=one\n2\nthree\n', ...ATTRS_0644]);
      expect(r).to.include({ code: 0, changed: true });
      expect(r.message).to.equal(`changed content sha256:${sha256('one\ntwo\nthree\n').slice(0, 12)} -> sha256:${sha256('one\n2\nthree\n').slice(0, 12)}`);
      expect(r.diff).to.equal(`--- ${target}\tcurrent\n+++ ${target}\tdesired\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three`);
      expect(r.stdout, 'one diff= line per line, after the result lines').to.match(/\nmessage=.*\ndiff=--- .*\ndiff=\+\+\+ .*\ndiff=@@ -1,3 \+1,3 @@\ndiff= one\ndiff=-two\ndiff=\+2\ndiff= three\n$/);
      expect(r.stderr, 'the diff is not log').to.equal('');
      expect(fs.readFileSync(target, 'utf8')).to.equal('one\n2\nthree\n');
    });

    it('present | present with wrong attributes -> stores the file with the right mode', async () => {
      const target = writeFile(path.join(dir, 'f'), 'same', 0o600);
      expect(await file(target, ['ensure=present', 'contents=same', ...ATTRS_0644])).to.include({ code: 0, changed: true, message: 'changed mode 0600 -> 0644' });
      expect(modeOf(target)).to.equal(0o644);
      expect(fs.readFileSync(target, 'utf8')).to.equal('same');
    });

    it('present | directory -> replaces an empty directory; a non-empty one needs force = true', async () => {
      const target = path.join(dir, 'd');
      fs.mkdirSync(target);
      expect(await file(target, ['ensure=present', 'contents=x', ...ATTRS_0644])).to.include({ code: 0, changed: true, message: 'replaced the directory with a file' });
      expect(fs.readFileSync(target, 'utf8')).to.equal('x');

      const full = path.join(dir, 'full');
      writeFile(path.join(full, 'inside'), 'x');
      const refused = await file(full, ['ensure=present', 'contents=x', ...ATTRS_0644]);
      expect(refused.code).to.equal(1);
      expect(refused.message).to.match(/non-empty directory; set force = true/);
      expect(fs.existsSync(path.join(full, 'inside'))).to.equal(true);
      expect(await file(full, ['ensure=present', 'contents=x', 'force=true', ...ATTRS_0644])).to.include({ code: 0, changed: true });
      expect(fs.readFileSync(full, 'utf8')).to.equal('x');
      expect(leftovers(dir)).to.deep.equal([]);
    });
  });

  it('without contents or source: creates an empty file, and keeps an existing file\'s bytes while fixing its mode', async () => {
    const fresh = path.join(dir, 'fresh');
    expect(await file(fresh, ['ensure=present', ...ATTRS_0644])).to.include({ code: 0, changed: true, message: 'created the file' });
    expect(fs.readFileSync(fresh, 'utf8')).to.equal('');
    const existing = writeFile(path.join(dir, 'existing'), 'precious\n', 0o666);
    expect(await file(existing, ['ensure=present', ...ATTRS_0644])).to.include({ code: 0, changed: true, message: 'changed mode 0666 -> 0644' });
    expect(fs.readFileSync(existing, 'utf8')).to.equal('precious\n');
    expect(modeOf(existing)).to.equal(0o644);
  });

  it('accepts every mode format: 0644, 644, 0o755, 0O700', async () => {
    for (const [text, mode] of [['0644', 0o644], ['644', 0o644], ['0o755', 0o755], ['0O700', 0o700]] as const) {
      const target = path.join(dir, `m${text}`);
      expect(await file(target, ['ensure=present', 'contents=m', ...ROOT_ATTRS, `mode=${text}`])).to.include({ code: 0, changed: true });
      expect(modeOf(target), text).to.equal(mode);
      const d = path.join(dir, `d${text}`);
      expect(await file(d, ['ensure=directory', ...ROOT_ATTRS, `mode=${text}`])).to.include({ code: 0, changed: true });
      expect(modeOf(d), text).to.equal(mode);
    }
  });

  it('refuses invalid modes before touching anything: 0888, 1777, rwx, 0o1755, empty', async () => {
    const cases: [string, RegExp][] = [
      ['0888', /^mode "0888" is not an octal mode \(character "8" is not a digit 0-7\)$/],
      ['1777', /mode "1777" is not an octal mode \(it is above 0777/],
      ['rwx', /mode "rwx" is not an octal mode \(character "r"/],
      ['0o1755', /mode "0o1755" is not an octal mode \(it is above 0777/],
      ['', /mode "" is not an octal mode \(it has no digits\)/],
    ];
    const target = path.join(dir, 'f');
    for (const [text, message] of cases) {
      const r = await file(target, ['ensure=present', 'contents=x', ...ROOT_ATTRS, `mode=${text}`]);
      expect(r.code, text).to.equal(1);
      expect(r.message).to.match(message);
      expect(r.stderr).to.match(/^error: /);
    }
    expect(fs.readdirSync(dir)).to.deep.equal([]);
  });

  it('refuses relative and unclean paths: a/b, /a/../b, /a/./b, /a/, //a', async () => {
    const cases: [string, RegExp][] = [
      ['a/b', /must start with "\/"/],
      [`${dir}/../b`, /"\.\." component/],
      [`${dir}/./b`, /"\." component/],
      [`${dir}/b/`, /must not end with "\/"/],
      [`/${dir}/b`, /must not contain "\/\/"/],
    ];
    for (const [target, message] of cases) {
      for (const ensure of ['present', 'directory']) {
        const r = await file(target, [`ensure=${ensure}`, ...ATTRS_0644], { GOVERN_STATE_DIR: dir });
        expect(r.code, target).to.equal(1);
        expect(r.message).to.match(message);
      }
    }
    expect(fs.readdirSync(dir)).to.deep.equal([]);
    expect(fs.existsSync(path.join(path.dirname(dir), 'b'))).to.equal(false);
  });

  describe('symbolic links at the managed path', () => {
    for (const ensure of ['present', 'directory']) {
      it(`ensure = ${ensure}: an error that says so, and nothing written through the link`, async () => {
        const victim = writeFile(path.join(dir, 'victim'), 'do not touch\n', 0o600);
        const link = path.join(dir, 'link');
        fs.symlinkSync(victim, link);
        const before = snapshot(dir);
        const args = ensure === 'present' ? ['ensure=present', 'contents=evil\n', ...ATTRS_0644] : ['ensure=directory', ...ATTRS_0644];
        for (const noop of [true, false]) {
          const r = await file(link, args, noop ? { GOVERN_NOOP: '1' } : {});
          expect(r.code).to.equal(1);
          expect(r.message).to.equal(`${link} is a symbolic link (to ${victim}); govern does not follow or replace a symbolic link at a managed path`);
        }
        expect(snapshot(dir)).to.deep.equal(before);
      });
    }

    it('ensure = absent: the link goes (noop first), its target stays', async () => {
      const victim = writeFile(path.join(dir, 'victim'), 'do not touch\n', 0o600);
      const link = path.join(dir, 'link');
      fs.symlinkSync(victim, link);
      const noop = await file(link, ['ensure=absent'], { GOVERN_NOOP: '1' });
      expect([noop.code, noop.message]).to.deep.equal([0, `Would have removed the symbolic link (to ${victim})`]);
      expect(fs.readlinkSync(link)).to.equal(victim);
      const r = await file(link, ['ensure=absent']);
      expect([r.code, r.message]).to.deep.equal([0, `removed the symbolic link (to ${victim})`]);
      expect(fs.existsSync(link)).to.equal(false);
      expect(fs.readFileSync(victim, 'utf8')).to.equal('do not touch\n');
    });

    it('a dangling link: its target is not created', async () => {
      const link = path.join(dir, 'link');
      fs.symlinkSync(path.join(dir, 'would-be-created'), link);
      const r = await file(link, ['ensure=present', 'contents=x', ...ATTRS_0644]);
      expect(r.code).to.equal(1);
      expect(r.message).to.match(/is a symbolic link/);
      expect(fs.existsSync(path.join(dir, 'would-be-created'))).to.equal(false);
    });
  });

  it('refuses a FIFO at the path without hanging on it', async () => {
    const fifo = path.join(dir, 'fifo');
    expect((await runCommand('mkfifo', [fifo])).code).to.equal(0);
    const r = await file(fifo, ['ensure=present', 'contents=x', ...ATTRS_0644]);
    expect(r.code).to.equal(1);
    expect(r.message).to.equal(`${fifo} is a FIFO, not a regular file or directory; govern does not replace it`);
  });

  it('a missing parent directory is a clear error (a warning in noop mode)', async () => {
    const target = path.join(dir, 'missing', 'f');
    const r = await file(target, ['ensure=present', 'contents=x', ...ATTRS_0644]);
    expect(r.code).to.equal(1);
    expect(r.message).to.equal(`parent directory ${path.join(dir, 'missing')} does not exist (declare it as its own file resource with ensure = "directory")`);
    const noop = await file(target, ['ensure=present', 'contents=x', ...ATTRS_0644], { GOVERN_NOOP: '1' });
    expect(noop).to.include({ code: 0, changed: true, message: 'Would have created the file' });
    expect(noop.stderr).to.match(/warning: parent directory .* does not exist/);
    expect(fs.readdirSync(dir)).to.deep.equal([]);
  });

  describe('noop mode', () => {
    it('reports each change with the seed\'s messages and leaves the tree byte for byte unchanged', async () => {
      writeFile(path.join(dir, 'content'), 'old\n', 0o644);
      writeFile(path.join(dir, 'mode'), 'same', 0o600);
      writeFile(path.join(dir, 'remove-me'), 'x');
      writeFile(path.join(dir, 'full', 'inside'), 'x');
      writeFile(path.join(dir, 'becomes-dir'), 'x');
      fs.mkdirSync(path.join(dir, 'dir-mode'), 0o700);
      fs.chmodSync(path.join(dir, 'dir-mode'), 0o700);
      fs.mkdirSync(path.join(dir, 'becomes-file'));
      const source = writeFile(path.join(dir, 'source'), 'from source\n');
      const before = snapshot(dir);
      const noop = { GOVERN_NOOP: '1' };
      const p = (name: string) => path.join(dir, name);
      const expectations: [string, string[], string][] = [
        ['new-file', ['ensure=present', 'contents=x', ...ATTRS_0644], 'Would have created the file'],
        ['new-dir', ['ensure=directory', ...ATTRS_0644], 'Would have created directory'],
        ['remove-me', ['ensure=absent'], 'Would have removed the file'],
        ['full', ['ensure=absent', 'force=true'], 'Would have removed the directory'],
        ['mode', ['ensure=present', 'contents=same', ...ATTRS_0644], 'Would have changed mode 0600 -> 0644'],
        ['dir-mode', ['ensure=directory', ...ATTRS_0644], 'Would have changed mode 0700 -> 0644'],
        ['becomes-dir', ['ensure=directory', ...ATTRS_0644], 'Would have replaced the file with a directory'],
        ['becomes-file', ['ensure=present', 'contents=x', ...ATTRS_0644], 'Would have replaced the directory with a file'],
        ['content', ['ensure=present', 'contents=new\n', ...ATTRS_0644], `Would have changed content sha256:${sha256('old\n').slice(0, 12)} -> sha256:${sha256('new\n').slice(0, 12)}`],
        ['content', ['ensure=present', 'source=source', ...ROOT_ATTRS, 'mode=0600'], `Would have changed content sha256:${sha256('old\n').slice(0, 12)} -> sha256:${sha256('from source\n').slice(0, 12)}, mode 0644 -> 0600`],
      ];
      for (const [name, args, message] of expectations) {
        const r = await file(p(name), args, { ...noop, GOVERN_STATE_DIR: dir });
        expect(r, name).to.include({ code: 0, changed: true, message });
      }
      const diff = await file(p('content'), ['ensure=present', 'contents=new\n', ...ATTRS_0644], noop);
      expect(diff.diff).to.contain('\n-old\n+new');
      expect(snapshot(dir)).to.deep.equal(before);
      expect(source).to.be.a('string');
    });

    it('reports changed=false when nothing would change', async () => {
      const target = writeFile(path.join(dir, 'f'), 'x', 0o644);
      expect(await file(target, ['ensure=present', 'contents=x', ...ATTRS_0644], { GOVERN_NOOP: '1' })).to.include({ code: 0, changed: false, message: 'file up to date' });
    });
  });

  describe('content diffs', () => {
    it('are not shown with show_diff = false (for secrets): only that the content changed', async () => {
      const target = writeFile(path.join(dir, 'secret'), 'password=old\n', 0o600);
      const r = await file(target, ['ensure=present', 'contents=password=new\n', 'show_diff=false', ...ROOT_ATTRS, 'mode=0600']);
      expect(r).to.include({ code: 0, changed: true });
      expect(r.stderr).to.equal('content changed (diff not shown: show_diff = false)\n');
      expect(r.stderr + r.message).to.not.contain('password');
    });

    it('are not shown for a file others cannot read, before or after: its other lines would reach the report', async () => {
      const closed = writeFile(path.join(dir, 'env'), 'DB_PASSWORD=old-secret\nPORT=1\n', 0o600);
      const r = await file(closed, ['ensure=present', 'contents=DB_PASSWORD=old-secret\nPORT=2\n', ...ROOT_ATTRS, 'mode=0600']);
      expect(r).to.include({ code: 0, changed: true, diff: undefined });
      expect(r.stderr).to.equal(`content changed (diff not shown: ${closed} is not readable by all (mode 0600), and the report is)\n`);
      const opening = writeFile(path.join(dir, 'opening'), 'old\n', 0o644);
      const o = await file(opening, ['ensure=present', 'contents=new\n', ...ROOT_ATTRS, 'mode=0640']);
      expect(o).to.include({ code: 0, changed: true, diff: undefined });
      expect(r.stdout + o.stdout).not.to.include('old');
    });

    it('are not shown for binary content', async () => {
      const target = path.join(dir, 'bin');
      fs.writeFileSync(target, Buffer.from([0x00, 0x01, 0x02, 0x0a]));
      fs.chmodSync(target, 0o644);
      const r = await file(target, ['ensure=present', 'contents=text now\n', ...ATTRS_0644]);
      expect(r).to.include({ code: 0, changed: true });
      expect(r.stderr).to.equal('content changed (diff not shown: binary content)\n');
    });

    it('are not shown for a new file, only for a change', async () => {
      const r = await file(path.join(dir, 'new'), ['ensure=present', 'contents=a\n', ...ATTRS_0644]);
      expect(r.stderr).to.equal('');
    });
  });

  describe('source', () => {
    it('resolves a relative source against GOVERN_STATE_DIR and copies it byte for byte', async () => {
      const state = path.join(dir, 'state');
      const bytes = Buffer.from([0xde, 0xad, 0x00, 0xbe, 0xef, 0x0a]);
      fs.mkdirSync(path.join(state, 'files'), { recursive: true });
      fs.writeFileSync(path.join(state, 'files', 'blob'), bytes);
      const target = path.join(dir, 'copy');
      const args = ['ensure=present', 'source=files/blob', ...ATTRS_0644];
      expect(await file(target, args, { GOVERN_STATE_DIR: state })).to.include({ code: 0, changed: true, message: 'created the file' });
      expect(fs.readFileSync(target).equals(bytes)).to.equal(true);
      expect(await file(target, args, { GOVERN_STATE_DIR: state })).to.include({ code: 0, changed: false });
    });

    it('a missing source or a directory as source is a clear error', async () => {
      const target = path.join(dir, 'copy');
      const missing = await file(target, ['ensure=present', 'source=nope', ...ATTRS_0644], { GOVERN_STATE_DIR: dir });
      expect(missing.code).to.equal(1);
      expect(missing.message).to.equal(`source file ${path.join(dir, 'nope')} does not exist`);
      const directory = await file(target, ['ensure=present', `source=${dir}`, ...ATTRS_0644]);
      expect(directory.message).to.equal(`source ${dir} is a directory, not a regular file`);
      const relative = await file(target, ['ensure=present', 'source=nope', ...ATTRS_0644]);
      expect(relative.message).to.match(/relative and GOVERN_STATE_DIR is not set/);
      expect(fs.existsSync(target)).to.equal(false);
    });
  });

  describe('notification mode', () => {
    it('accepts refresh and does nothing else', async () => {
      const target = path.join(dir, 'f');
      const r = await file(target, ['ensure=present', 'contents=x', ...ATTRS_0644], { GOVERN_SIGNAL: 'refresh' });
      expect(r).to.include({ code: 0, changed: false });
      expect(fs.existsSync(target)).to.equal(false);
    });

    it('refuses any other signal with a message on stderr', async () => {
      const r = await file(path.join(dir, 'f'), ['ensure=present', 'contents=x', ...ATTRS_0644], { GOVERN_SIGNAL: 'restart' });
      expect(r.code).to.equal(1);
      expect(r.stderr).to.contain('file does not accept the signal "restart" (it accepts refresh)');
      expect(fs.readdirSync(dir)).to.deep.equal([]);
    });
  });

  describe('as an unprivileged user (nobody)', () => {
    // nobody may not be able to enter the checkout's directory: run an installed copy.
    let installed: TempInstall;
    before(async () => {
      installed = await installToTempPrefix();
    });
    after(() => installed.remove());
    const asNobody = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      runCommand('runuser', ['-u', 'nobody', '--', path.join(installed.runnersDir, 'file'), ...args], { env: { ...process.env, ...env } });

    it('reads a file it does not own (no O_NOATIME for it) and reports it up to date', async () => {
      fs.chmodSync(dir, 0o755);
      const target = writeFile(path.join(dir, 'f'), 'x', 0o644);
      const r = await asNobody([target, 'ensure=present', 'contents=x', ...ATTRS_0644], { GOVERN_NOOP: '1' });
      expect(r.stdout).to.equal('changed=false\nmessage=file up to date\n');
    });

    it('a permission error is a clear message, without a stack trace', async () => {
      fs.chmodSync(dir, 0o755);
      const target = writeFile(path.join(dir, 'f'), 'x', 0o644);
      const r = await asNobody([target, 'ensure=present', 'contents=y', ...ATTRS_0644]);
      expect(r.code).to.equal(1);
      expect(r.stdout).to.equal(`message=cannot write ${target}: creating a temporary file in ${dir} failed (EACCES)\n`);
      expect(r.stderr).to.match(new RegExp(`(^|\\n)error: cannot write ${target}: creating a temporary file in ${dir} failed \\(EACCES\\)\\n$`));
      expect(r.stderr).to.not.match(/^\s+at /m);
      expect(fs.readFileSync(target, 'utf8')).to.equal('x');
    });
  });

  describe('ownership, with a real second user and group', () => {
    const account = new TestAccount();
    before(async () => account.create());
    after(async () => account.remove());

    it('sets owner and group by name', async () => {
      const target = path.join(dir, 'owned');
      const args = ['ensure=present', 'contents=x', `owner=${account.user}`, `group=${account.group}`, 'mode=0640'];
      expect(await file(target, args)).to.include({ code: 0, changed: true, message: 'created the file' });
      const st = fs.lstatSync(target);
      expect([st.uid, st.gid, st.mode & 0o7777]).to.deep.equal([account.uid, account.gid, 0o640]);
      expect(await file(target, args)).to.include({ code: 0, changed: false });
    });

    it('sets owner and group by numeric id', async () => {
      const target = path.join(dir, 'owned');
      expect(await file(target, ['ensure=present', 'contents=x', `owner=${account.uid}`, `group=${account.gid}`, 'mode=0600'])).to.include({ code: 0, changed: true });
      const st = fs.lstatSync(target);
      expect([st.uid, st.gid]).to.deep.equal([account.uid, account.gid]);
      // the same owner by name is no change
      expect(await file(target, ['ensure=present', 'contents=x', `owner=${account.user}`, `group=${account.group}`, 'mode=0600'])).to.include({ code: 0, changed: false });
    });

    it('names the current and the desired owner and group when they change (noop, then for real)', async () => {
      const target = writeFile(path.join(dir, 'owned'), 'x', 0o644);
      fs.chownSync(target, account.uid, account.gid);
      const args = ['ensure=present', 'contents=x', ...ATTRS_0644];
      const message = `changed owner ${account.user} -> root, group ${account.group} -> root`;
      expect(await file(target, args, { GOVERN_NOOP: '1' })).to.include({ code: 0, changed: true, message: `Would have ${message}` });
      expect(fs.lstatSync(target).uid).to.equal(account.uid);
      expect(await file(target, args)).to.include({ code: 0, changed: true, message });
      const st = fs.lstatSync(target);
      expect([st.uid, st.gid]).to.deep.equal([0, 0]);
    });

    it('changes a directory\'s owner and group in place', async () => {
      const target = path.join(dir, 'd');
      writeFile(path.join(target, 'inside'), 'kept');
      const ino = fs.lstatSync(target).ino;
      expect(await file(target, ['ensure=directory', `owner=${account.user}`, `group=${account.group}`, 'mode=0750'])).to.include({ code: 0, changed: true });
      const st = fs.lstatSync(target);
      expect([st.uid, st.gid, st.mode & 0o7777, st.ino]).to.deep.equal([account.uid, account.gid, 0o750, ino]);
    });

    it('an unknown user or group is a clear error, and nothing is created', async () => {
      const target = path.join(dir, 'f');
      const user = await file(target, ['ensure=present', 'contents=x', 'owner=no-such-user-gft', 'group=root', 'mode=0644']);
      expect(user.code).to.equal(1);
      expect(user.message).to.equal('unknown user "no-such-user-gft" (getent passwd no-such-user-gft found no entry)');
      const group = await file(target, ['ensure=present', 'contents=x', 'owner=root', 'group=no-such-group-gft', 'mode=0644']);
      expect(group.message).to.equal('unknown group "no-such-group-gft" (getent group no-such-group-gft found no entry)');
      expect(fs.existsSync(target)).to.equal(false);
    });
  });
});
