// backup = true: the content a change replaces is kept in the backup directory (root only), the
// newest five copies per file; nothing is kept when nothing changes, in noop, or without the key.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { BACKUPS_KEPT } from '../../../src/runners/lib/file/backup.js';
import { runnerOutcome } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const OWNED = ['owner=root', 'group=root', 'mode=0644'];

describe('file runner: backup = true #once', () => {
  it('keeps each replaced content, the newest five, in a root-only directory', async () => {
    const dir = tempDir('govern-backup-');
    const backups = path.join(dir, 'backup');
    const env = { GOVERN_VAR_DIR: dir };
    const live = writeFile(path.join(dir, 'app.conf'), 'v0\n');
    const copies = () => (fs.existsSync(path.join(backups, live)) ? fs.readdirSync(path.join(backups, live)).filter((name) => !name.endsWith('.json')).sort() : []);

    expect(await runnerOutcome('file', [live, 'ensure=present', 'contents=v0\n', ...OWNED, 'backup=true'], { env })).to.deep.include({ code: 0, changed: false });
    expect(copies()).to.deep.equal([]);
    expect(await runnerOutcome('file', [live, 'ensure=present', 'contents=v1\n', ...OWNED, 'backup=true'], { env: { ...env, GOVERN_NOOP: '1' } })).to.deep.include({ changed: true });
    expect(copies()).to.deep.equal([]);

    for (let i = 1; i <= BACKUPS_KEPT + 2; i++) {
      const r = await runnerOutcome('file', [live, 'ensure=present', `contents=v${i}\n`, ...OWNED, 'backup=true'], { env });
      expect(r).to.deep.include({ code: 0, changed: true });
    }
    const kept = copies();
    expect(kept).to.have.length(BACKUPS_KEPT);
    expect(kept.map((name) => fs.readFileSync(path.join(backups, live, name), 'utf8'))).to.deep.equal(['v2\n', 'v3\n', 'v4\n', 'v5\n', 'v6\n']);
    expect(fs.statSync(backups).mode & 0o777).to.equal(0o700);
    expect(fs.statSync(path.join(backups, live, kept[0])).mode & 0o777).to.equal(0o600);
    expect(fs.readFileSync(live, 'utf8')).to.equal(`v${BACKUPS_KEPT + 2}\n`);

    await runnerOutcome('file', [live, 'ensure=present', 'contents=no backup\n', ...OWNED], { env });
    expect(copies()).to.deep.equal(kept);
  });
});
