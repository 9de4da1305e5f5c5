// The real-file tests of the edit runners (ini, block): each row of a decision table in a temporary
// directory, in both runner modes: the noop first (changing nothing, not even an access time), the
// real run, then a second run that changes nothing.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/tmp.js';
import { leftovers, snapshot } from './file/support.js';
import { callRunner, type RunnerMode } from '../support/runner-modes.js';

export interface Row {
  row: string;
  /** The file's content before; undefined: no file. */
  before?: string;
  args: string[];
  /** The message of the real run; with `error`, the failure's message. */
  message: string;
  error?: boolean;
  /** The content after the real run. Unchanged when not given. */
  after?: string;
  /** The noop run's message when it is not "Would have " + message. */
  noopMessage?: string;
}

/**
 * One mocha test per row; `rows(F)` gives the rows with F the file's path. `newFileDiff`: a file the
 * runner creates is shown as a diff too (the line runner shows none).
 */
export function rowTests(runner: string, name: string, mode: RunnerMode, rows: (F: string) => Row[], { newFileDiff = true } = {}): void {
  for (const row of rows('F')) {
    it(row.row, async () => {
      const dir = tempDir(`govern-${runner}-`);
      const F = path.join(dir, 'f.conf');
      const r = rows(F).find((x) => x.row === row.row)!;
      if (r.before !== undefined) fs.writeFileSync(F, r.before);
      const changes = !r.error && r.after !== undefined;

      const before = snapshot(dir);
      const noop = await callRunner(runner, mode, name, [`path=${F}`, ...r.args], { GOVERN_NOOP: '1' });
      const noopFails = r.error && r.noopMessage === undefined;
      expect(noop, noop.log).to.include({ ok: !noopFails, changed: !noopFails && (changes || r.noopMessage !== undefined) });
      expect(noop.message).to.equal(r.noopMessage ?? (changes ? `Would have ${r.message}` : r.message));
      expect(snapshot(dir), 'noop changed nothing, not even an access time').to.deep.equal(before);

      const real = await callRunner(runner, mode, name, [`path=${F}`, ...r.args]);
      expect(real, real.log).to.include({ ok: !r.error, changed: changes, message: r.message });
      if (r.error || !changes) expect(snapshot(dir), 'nothing changed').to.deep.equal(before);
      else expect(fs.readFileSync(F, 'utf8')).to.equal(r.after);
      expect(leftovers(dir)).to.deep.equal([]);
      if (changes && (newFileDiff || r.before !== undefined)) expect(real.diff, 'a diff').to.be.a('string').and.equal(noop.diff);

      if (!r.error) {
        const settled = snapshot(dir);
        const again = await callRunner(runner, mode, name, [`path=${F}`, ...r.args]);
        expect(again, again.log).to.include({ ok: true, changed: false });
        expect(snapshot(dir), 'the second run changed nothing').to.deep.equal(settled);
      }
    });
  }
}

/** A file holding one key with its value, in the runner's format: `key = value` for ini and TOML. */
export type Sample = (key: string, value: string) => string;

const ASSIGNMENT: Sample = (key, value) => `${key} = ${value}\n`;

/** What every edit runner refuses or keeps, whatever it puts in the file: `args` make a change. */
export function commonTests(runner: string, mode: RunnerMode, args: string[], sample: Sample = ASSIGNMENT): void {
  symlinkTest(runner, mode, args);

  it('a directory or a FIFO at the path is refused: not a regular file', async () => {
    const dir = tempDir(`govern-${runner}-`);
    const sub = path.join(dir, 'sub');
    fs.mkdirSync(sub);
    const r = await callRunner(runner, mode, 'x', [`path=${sub}`, ...args]);
    expect(r).to.include({ ok: false, changed: false, message: `${sub} is a directory, not a regular file; govern edits only a regular file` });
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const f = await callRunner(runner, mode, 'x', [`path=${fifo}`, ...args]);
    expect(f).to.include({ ok: false, changed: false });
    expect(f.message).to.match(/ is a FIFO.*, not a regular file; govern edits only a regular file$/);
  });

  it('a rewrite keeps the owner, group and mode; a 0600 file gives no diff, and says why', async () => {
    const dir = tempDir(`govern-${runner}-`);
    const F = path.join(dir, 'f.conf');
    fs.writeFileSync(F, sample('secret', '1'), { mode: 0o600 });
    fs.chmodSync(F, 0o600);
    fs.chownSync(F, 4321, 4322);
    const r = await callRunner(runner, mode, 'x', [`path=${F}`, ...args]);
    expect(r, r.log).to.include({ ok: true, changed: true });
    expect(r.diff).to.equal(undefined);
    expect(r.log).to.include(`content changed (diff not shown: ${F} is not readable by all (mode 0600), and the report is)`);
    const st = fs.statSync(F);
    expect([st.uid, st.gid, st.mode & 0o7777]).to.deep.equal([4321, 4322, 0o600]);
    expect(fs.readFileSync(F, 'utf8')).to.include(sample('secret', '1').replace(/^[{\s]+|[}\s]+$/g, ''));
  });

  it('validate: a failing command leaves the file as it was, in noop mode too; a passing one lets the change through', async () => {
    const dir = tempDir(`govern-${runner}-`);
    const F = path.join(dir, 'f.conf');
    fs.writeFileSync(F, sample('a', '1'));
    const before = snapshot(dir)['f.conf'];
    for (const env of [{ GOVERN_NOOP: '1' }, {}] as Record<string, string>[]) {
      const r = await callRunner(runner, mode, 'x', [`path=${F}`, ...args, 'validate=false %'], env);
      expect(r.ok, r.log).to.equal(false);
      expect(r.message).to.include('validate false %');
    }
    // The directory's times change: the content to check was written beside the file, then removed.
    expect(snapshot(dir)['f.conf']).to.deep.equal(before);
    expect(leftovers(dir)).to.deep.equal([]);
    const ok = await callRunner(runner, mode, 'x', [`path=${F}`, ...args, 'validate=grep -q . %']);
    expect(ok, ok.log).to.include({ ok: true, changed: true });
    expect(leftovers(dir)).to.deep.equal([]);
  });

  it('backup = true keeps the content the change replaced', async () => {
    const dir = tempDir(`govern-${runner}-`);
    const F = path.join(dir, 'f.conf');
    fs.writeFileSync(F, sample('old', '1'));
    const backups = path.join(dir, 'backup');
    const r = await callRunner(runner, mode, 'x', [`path=${F}`, ...args, 'backup=true'], { GOVERN_VAR_DIR: dir });
    expect(r, r.log).to.include({ ok: true, changed: true });
    const copies = fs.readdirSync(path.join(backups, F)).filter((name) => !name.endsWith('.json'));
    expect(copies).to.have.length(1);
    expect(fs.readFileSync(path.join(backups, F, copies[0]), 'utf8')).to.equal(sample('old', '1'));
    expect(r.log).to.include(`backed up the old content to ${path.join(backups, F, copies[0])}`);
  });

  it('refresh does nothing; an unknown signal is refused', async () => {
    const dir = tempDir(`govern-${runner}-`);
    const F = path.join(dir, 'f.conf');
    fs.writeFileSync(F, sample('a', '1'));
    const refresh = await callRunner(runner, mode, 'x', [`path=${F}`, ...args], { GOVERN_SIGNAL: 'refresh' });
    expect(refresh).to.include({ ok: true, changed: false });
    expect(fs.readFileSync(F, 'utf8')).to.equal(sample('a', '1'));
    const unknown = await callRunner(runner, mode, 'x', [`path=${F}`, ...args], { GOVERN_SIGNAL: 'restart' });
    expect(unknown.ok).to.equal(false);
    expect(unknown.message).to.include('restart');
  });
}

/** Every runner that edits a file refuses a symbolic link at its path: `args` make a change. */
export function symlinkTest(runner: string, mode: RunnerMode, args: string[]): void {
  it('a symbolic link at the path is refused and neither it nor its target changes', async () => {
    const dir = tempDir(`govern-${runner}-`);
    const target = path.join(dir, 'real.conf');
    fs.writeFileSync(target, 'a\n');
    const link = path.join(dir, 'link.conf');
    fs.symlinkSync(target, link);
    const before = snapshot(dir);
    for (const env of [{ GOVERN_NOOP: '1' }, {}] as Record<string, string>[]) {
      const r = await callRunner(runner, mode, 'x', [`path=${link}`, ...args], env);
      expect(r).to.include({ ok: false, changed: false, message: `${link} is a symbolic link (to ${target}); govern does not follow or replace a symbolic link at a managed path` });
    }
    expect(snapshot(dir)).to.deep.equal(before);
  });
}
