// The real runners/archive in both runner modes, with archives real tar makes: a device node or a
// FIFO in an archive is refused (nothing extracted), a setuid or setgid bit taken off; the source is
// read once, so a source swapped after it was hashed (by a tar on PATH that swaps it, then runs the
// real one) is not what gets extracted; noop fails as the run would on a local source with the
// wrong checksum or an entry landing outside.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const NOOP_AND_REAL: Record<string, string>[] = [{ GOVERN_NOOP: '1' }, {}];
const leftovers = (dir: string) => fs.readdirSync(dir).filter((n) => n.includes('.govern-'));

/** A tar of what `make` puts into a fresh directory. */
function tarOf(make: (dir: string) => void): string {
  const dir = tempDir('govern-archive-src-');
  make(dir);
  const tar = path.join(tempDir('govern-archive-tar-'), 'a.tar');
  execFileSync('tar', ['-cf', tar, '-C', dir, '.']);
  return tar;
}

for (const mode of MODES) {
  describe(`archive runner: untrusted archives and sources (${mode}) #once`, function () {
    this.timeout(60_000);
    const archive = (target: string, args: string[], env: Record<string, string> = {}) => callRunner('archive', mode, target, args, env);

    it('refuses a device node and a FIFO, extracting nothing; takes setuid and setgid bits off', async () => {
      const root = tempDir('govern-archive-');
      const cases = [
        ['a character device', (d: string) => execFileSync('mknod', [path.join(d, 'disk'), 'c', '1', '3'])],
        ['a FIFO', (d: string) => execFileSync('mkfifo', [path.join(d, 'disk')])],
      ] as const;
      for (const [kind, make] of cases) {
        const tar = tarOf((d) => {
          writeFile(path.join(d, 'README'), 'x\n');
          make(d);
        });
        const target = path.join(root, 'dev');
        const r = await archive(target, [`source=${tar}`, `sha256=${sha256(tar)}`, 'owner=nobody']);
        expect(r).to.include({ ok: false, message: `${tar}: entry "disk" is ${kind}: an archive extracts files, directories and links only; nothing extracted` });
        expect(fs.existsSync(target)).to.equal(false);
        expect(leftovers(root)).to.deep.equal([]);
      }
      const tar = tarOf((d) => {
        writeFile(path.join(d, 'bin', 'su'), '#!/bin/sh\n', 0o755);
        fs.chmodSync(path.join(d, 'bin', 'su'), 0o6755);
      });
      const target = path.join(root, 'tool');
      expect(await archive(target, [`source=${tar}`, `sha256=${sha256(tar)}`])).to.include({ ok: true, changed: true });
      expect(fs.statSync(path.join(target, 'bin', 'su')).mode & 0o7777).to.equal(0o755);
    });

    it('reads the source once: swapped after the checksum, what is extracted is still the archive checked', async () => {
      const root = tempDir('govern-archive-');
      const good = tarOf((d) => writeFile(path.join(d, 'app'), 'good\n'));
      const evil = tarOf((d) => writeFile(path.join(d, 'pwned'), 'evil\n'));
      const source = path.join(tempDir('govern-archive-source-'), 'app.tar');
      fs.copyFileSync(good, source);
      // A tar first on PATH: the first time it runs, the source is replaced by another archive.
      const bin = tempDir('govern-archive-bin-');
      const real = execFileSync('sh', ['-c', 'command -v tar'], { encoding: 'utf8' }).trim();
      writeFile(path.join(bin, 'tar'), `#!/bin/sh\n[ -e ${bin}/swapped ] || { cp ${evil} ${source}.new && mv ${source}.new ${source} && touch ${bin}/swapped; }\nexec ${real} "$@"\n`, 0o755);
      const target = path.join(root, 'app');
      const r = await archive(target, [`source=${source}`, `sha256=${sha256(good)}`], { PATH: `${bin}:${process.env.PATH ?? ''}` });
      expect(fs.existsSync(path.join(bin, 'swapped'))).to.equal(true);
      expect(r, r.log).to.include({ ok: true, changed: true });
      expect(fs.readdirSync(target).sort()).to.deep.equal(['.govern-archive', 'app']);
      expect(leftovers(root)).to.deep.equal([]);
    });

    it('noop fails as the run does: a local source whose checksum differs, or with an entry outside the target', async () => {
      const root = tempDir('govern-archive-');
      const tar = tarOf((d) => writeFile(path.join(d, 'a'), 'a\n'));
      const target = path.join(root, 'app');
      for (const env of NOOP_AND_REAL) {
        const r = await archive(target, [`source=${tar}`, `sha256=${'0'.repeat(64)}`], env);
        expect(r).to.include({ ok: false, message: `${tar} has sha256 ${sha256(tar)}, not ${'0'.repeat(64)}: nothing extracted` });
      }
      const work = tempDir('govern-archive-evil-');
      fs.mkdirSync(path.join(work, 'in'));
      fs.writeFileSync(path.join(work, 'evil'), 'x\n');
      const dotdot = path.join(work, 'dotdot.tar');
      execFileSync('tar', ['-cf', dotdot, '-P', '-C', path.join(work, 'in'), '../evil']);
      for (const env of NOOP_AND_REAL) {
        const r = await archive(target, [`source=${dotdot}`, `sha256=${sha256(dotdot)}`], env);
        expect(r).to.include({ ok: false, message: `${dotdot}: entry "../evil" would land outside ${target}: nothing extracted` });
      }
      expect(await archive(target, [`source=${tar}`, `sha256=${sha256(tar)}`], { GOVERN_NOOP: '1' })).to.include({ ok: true, changed: true, message: `Would have extracted ${tar} into ${target}` });
      expect(fs.existsSync(target)).to.equal(false);
      expect(leftovers(root)).to.deep.equal([]);
    });
  });
}
