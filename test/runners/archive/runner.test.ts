// The real runners/archive in both runner modes, against an HTTP server of the test's own on
// 127.0.0.1 (an ephemeral port) and local files: archives made by tar and Python's zipfile here.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A tar.gz of the given files (name -> content), made by tar. */
function tarGz(file: string, files: Record<string, string>): string {
  const src = tempDir('govern-archive-src-');
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
    fs.writeFileSync(path.join(src, name), content);
  }
  execFileSync('tar', ['-czf', file, '-C', src, ...Object.keys(files)]);
  return file;
}

for (const mode of MODES) {
  describe(`archive runner (${mode}) #once`, function () {
    this.timeout(60_000);
    let served: string;
    let server: http.Server;
    let base: string;
    before(async () => {
      served = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-archive-www-')); // kept for the whole describe
      server = http.createServer((req, res) => {
        const file = path.join(served, path.basename(req.url ?? ''));
        if (!fs.existsSync(file)) return void res.writeHead(404).end();
        res.writeHead(200).end(fs.readFileSync(file));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      server.close();
      fs.rmSync(served, { recursive: true, force: true });
    });
    const archive = (target: string, args: string[], env: Record<string, string> = {}) => callRunner('archive', mode, target, args, env);
    const leftovers = (dir: string) => fs.readdirSync(dir).filter((n) => n.includes('.govern-'));

    it('over HTTP: noop, extract, no change on the second run, a new sha256 replaces the whole tree', async () => {
      const root = tempDir('govern-archive-');
      const target = path.join(root, 'app');
      const v1 = tarGz(path.join(served, 'app-1.tar.gz'), { 'bin/app': 'one\n', 'old.txt': 'old\n' });
      const args1 = [`source=${base}/app-1.tar.gz`, `sha256=${sha256(v1)}`];
      expect(await archive(target, args1, { GOVERN_NOOP: '1' })).to.include({ ok: true, changed: true, message: `Would have extracted ${base}/app-1.tar.gz into ${target}` });
      expect(fs.existsSync(target)).to.equal(false);
      expect(await archive(target, args1)).to.include({ ok: true, changed: true, message: `extracted ${base}/app-1.tar.gz into ${target}` });
      expect(fs.readFileSync(path.join(target, 'bin/app'), 'utf8')).to.equal('one\n');
      expect(await archive(target, args1)).to.include({ ok: true, changed: false, message: `${target} holds the archive (sha256 ${sha256(v1).slice(0, 12)})` });

      const v2 = tarGz(path.join(served, 'app-2.tar.gz'), { 'bin/app': 'two\n' });
      const r = await archive(target, [`source=${base}/app-2.tar.gz`, `sha256=${sha256(v2)}`]);
      expect(r).to.include({ ok: true, changed: true, message: `replaced ${target} with ${base}/app-2.tar.gz (sha256 ${sha256(v1).slice(0, 12)} -> ${sha256(v2).slice(0, 12)})` });
      expect(fs.readFileSync(path.join(target, 'bin/app'), 'utf8')).to.equal('two\n');
      expect(fs.existsSync(path.join(target, 'old.txt'))).to.equal(false);
      expect(leftovers(root)).to.deep.equal([]);
    });

    it('a wrong sha256 or a missing file extracts nothing and leaves nothing beside the target', async () => {
      const root = tempDir('govern-archive-');
      const target = path.join(root, 'app');
      tarGz(path.join(served, 'app-3.tar.gz'), { a: 'a\n' });
      const wrong = await archive(target, [`source=${base}/app-3.tar.gz`, `sha256=${'0'.repeat(64)}`]);
      expect(wrong.ok).to.equal(false);
      expect(wrong.message).to.match(new RegExp(`^${base}/app-3.tar.gz has sha256 [0-9a-f]{64}, not 0{64}: nothing extracted$`));
      const missing = await archive(target, [`source=${base}/nope.tar.gz`, `sha256=${'0'.repeat(64)}`]);
      expect(missing.message).to.equal(`cannot download ${base}/nope.tar.gz: HTTP 404`);
      expect(fs.existsSync(target)).to.equal(false);
      expect(leftovers(root)).to.deep.equal([]);
    });

    it('refuses entries escaping the target: a ".." name, and a symbolic link pointing out', async () => {
      const root = tempDir('govern-archive-');
      const work = tempDir('govern-archive-evil-');
      fs.mkdirSync(path.join(work, 'in'));
      fs.writeFileSync(path.join(work, 'evil'), 'x\n');
      const dotdot = path.join(work, 'dotdot.tar');
      execFileSync('tar', ['-cf', dotdot, '-P', '-C', path.join(work, 'in'), '../evil']);
      const r1 = await archive(path.join(root, 'a'), [`source=${dotdot}`, `sha256=${sha256(dotdot)}`]);
      expect(r1).to.include({ ok: false, message: `${dotdot}: entry "../evil" would land outside ${path.join(root, 'a')}: nothing extracted` });
      expect(fs.existsSync(path.join(root, 'evil'))).to.equal(false);

      fs.symlinkSync('/etc/passwd', path.join(work, 'in', 'link'));
      const link = path.join(work, 'link.tar');
      execFileSync('tar', ['-cf', link, '-C', path.join(work, 'in'), 'link']);
      const r2 = await archive(path.join(root, 'b'), [`source=${link}`, `sha256=${sha256(link)}`]);
      expect(r2).to.include({ ok: false, message: `${link}: entry "link" links outside ${path.join(root, 'b')} (to "/etc/passwd"): nothing extracted` });
      expect(fs.existsSync(path.join(root, 'b'))).to.equal(false);

      // Each link's text stays inside, but the kernel follows d to the tree itself, so e leads out.
      const chain = path.join(work, 'chain');
      fs.mkdirSync(path.join(chain, 'x'), { recursive: true });
      fs.symlinkSync('.', path.join(chain, 'd'));
      fs.symlinkSync('d/x/../..', path.join(chain, 'e'));
      const chained = path.join(work, 'chain.tar');
      execFileSync('tar', ['-cf', chained, '-C', chain, 'd', 'x', 'e']);
      const r3 = await archive(path.join(root, 'c'), [`source=${chained}`, `sha256=${sha256(chained)}`]);
      expect(r3).to.include({ ok: false, message: `${chained}: entry "e" links outside ${path.join(root, 'c')} (to "d/x/../.."): nothing extracted` });
      expect(fs.existsSync(path.join(root, 'c'))).to.equal(false);
      expect(leftovers(root)).to.deep.equal([]);
    });

    it('refuses to replace a directory it did not extract (files, no marker), and leaves it as it was', async () => {
      const root = tempDir('govern-archive-');
      const target = path.join(root, 'opt');
      fs.mkdirSync(target);
      fs.writeFileSync(path.join(target, 'precious'), 'keep\n');
      const tar = tarGz(path.join(served, 'app-4.tar.gz'), { a: 'a\n' });
      for (const noop of [true, false]) {
        const r = await archive(target, [`source=${base}/app-4.tar.gz`, `sha256=${sha256(tar)}`], noop ? { GOVERN_NOOP: '1' } : {});
        expect(r.ok).to.equal(false);
        expect(r.message).to.equal(`${target} holds files govern did not extract (no .govern-archive): refusing to replace them; empty or remove it, or choose another target`);
      }
      expect(fs.readdirSync(target)).to.deep.equal(['precious']);
      expect(leftovers(root)).to.deep.equal([]);
    });

    it('a local zip, owned as asked; creates skips it', async () => {
      const root = tempDir('govern-archive-');
      const zip = path.join(tempDir('govern-archive-zip-'), 'site.zip');
      execFileSync('python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z: z.writestr("index.html", "hi\\n")', zip]);
      const target = path.join(root, 'site');
      expect(await archive(target, [`source=${zip}`, `sha256=${sha256(zip)}`, 'owner=nobody', 'group=nogroup'])).to.include({ ok: true, changed: true });
      const st = fs.statSync(path.join(target, 'index.html'));
      expect([fs.readFileSync(path.join(target, 'index.html'), 'utf8'), st.uid]).to.deep.equal(['hi\n', Number(execFileSync('id', ['-u', 'nobody']).toString())]);
      const skipped = await archive(path.join(root, 'other'), [`source=${zip}`, `sha256=${sha256(zip)}`, `creates=${target}`]);
      expect(skipped).to.include({ ok: true, changed: false, message: `${target} exists: ${path.join(root, 'other')} left alone` });
    });

    it('bad input is refused before anything: a required key, a bad value, did-you-mean', async () => {
      const r = await archive('/opt/x', ['source=ftp://h/a.tgz', 'sha265=abc']);
      expect(r.ok).to.equal(false);
      expect(r.message).to.equal('unknown key "sha265" (did you mean "sha256"?); source "ftp://h/a.tgz" is not an http:// or https:// URL, or an absolute path; sha256 is required');
    });
  });
}
