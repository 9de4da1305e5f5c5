// The record of the last real run: VAR_DIR/last-run.json after every run that is not --noop (also
// one that stopped before applying), and the Prometheus metrics file, checked by promtool.
import Ajv from 'ajv';
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { json, tree } from '../support/state-tree.js';
import { ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const schema = JSON.parse(/<!-- report-schema -->\n```json\n([\s\S]*?)\n```/.exec(fs.readFileSync(path.join(ROOT, 'docs', 'report.md'), 'utf8'))![1]) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

function lastRun(varDir: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8'));
}

describe('last-run.json', () => {
  it('is the full report of every real run, written readable by all', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\npkg "b" {}\n' });
    const varDir = path.join(tempDir(), 'var');
    const r = await t.run(['--json', '--var-dir', varDir]);
    expect(r.code, r.stderr).to.equal(0);
    const record = lastRun(varDir);
    expect(record).to.deep.equal(json(r.stdout));
    expect(validate(record), JSON.stringify(validate.errors)).to.equal(true);
    expect(fs.statSync(path.join(varDir, 'last-run.json')).mode & 0o777).to.equal(0o644);
    expect(fs.readdirSync(varDir).sort(), 'no temporary file left').to.deep.equal(['last-run.json', 'managed.json']);
  });

  it('is not replaced by a --noop run, and GOVERN_VAR_DIR chooses the directory', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  changed = true\n}\n' });
    const varDir = path.join(tempDir(), 'var');
    expect((await t.run([], { GOVERN_VAR_DIR: varDir })).code).to.equal(0);
    const before = fs.readFileSync(path.join(varDir, 'last-run.json'));
    const noop = await t.run(['--noop'], { GOVERN_VAR_DIR: varDir });
    expect(noop.code, noop.stderr).to.equal(0);
    expect(noop.stdout).to.match(/^noop: /m);
    expect(fs.readFileSync(path.join(varDir, 'last-run.json')).equals(before)).to.equal(true);
  });

  it('records a run that stopped before applying anything, with its errors', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {\n  before = ["pkg:nope"]\n}\n' });
    const varDir = path.join(tempDir(), 'var');
    const r = await t.run(['--var-dir', varDir]);
    expect(r.code).to.equal(1);
    const record = lastRun(varDir) as { errors: { message: string; file?: string }[]; resources: unknown[] };
    expect(validate(record), JSON.stringify(validate.errors)).to.equal(true);
    expect(record.resources).to.deep.equal([]);
    expect(record.errors[0].message).to.include('pkg:nope');
    expect(record.errors[0].file).to.equal(path.join(t.states, 'a.hcl'));
    expect(t.calls()).to.deep.equal([]);
  });

  it('a record that cannot be written fails the run (exit 1), saying where', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const blocked = writeFile(path.join(tempDir(), 'not-a-dir'), 'x');
    const r = await t.run(['--var-dir', blocked]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`govern: cannot record the run in ${blocked}/last-run.json`);
    expect(t.calls(), 'the run itself happened').to.deep.equal(['pkg:a']);
  });
});

describe('--metrics-file (Prometheus text format for the node_exporter textfile collector)', () => {
  async function promtool(file: string) {
    const r = await runCommand('promtool', ['check', 'metrics'], { input: fs.readFileSync(file, 'utf8'), timeoutMs: 60_000 });
    if (r.spawnError) throw new Error('promtool is missing: run scripts/setup-debian (make setup)');
    return r;
  }

  /** The samples of a metrics file, by name and labels. */
  function samples(file: string): Map<string, number> {
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    return new Map(lines.map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));
  }

  it('passes promtool check metrics after a good run, a failed one and one that stopped before applying', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['good', { 'a.hcl': 'pkg "a" {\n  changed = true\n}\npkg "b" {}\n' }, 1],
      ['failed', { 'a.hcl': 'pkg "a" {\n  fail = true\n}\npkg "b" {\n  after = ["pkg:a"]\n}\n' }, 0],
      ['stopped', { 'a.hcl': 'pkg "a" {\n  before = ["pkg:nope"]\n}\n' }, 0],
    ];
    for (const [name, files, success] of cases) {
      const t = tree(files);
      const file = path.join(tempDir(), 'textfile', 'govern.prom');
      fs.mkdirSync(path.dirname(file));
      const started = Date.now() / 1000;
      await t.run(['--var-dir', path.join(t.dir, 'var'), '--metrics-file', file]);
      const check = await promtool(file);
      expect(check.code, `${name}: ${check.stdout}${check.stderr}`).to.equal(0);
      expect(check.stdout + check.stderr, name).to.equal('');
      const s = samples(file);
      expect(s.get('govern_last_run_success'), name).to.equal(success);
      expect(s.get('govern_last_run_timestamp_seconds'), name).to.be.within(started, Date.now() / 1000);
      expect(fs.readdirSync(path.dirname(file)), 'only the .prom file, no temporary one').to.deep.equal(['govern.prom']);
      if (name === 'good') {
        expect(s.get('govern_last_run_resources{status="changed"}')).to.equal(1);
        expect(s.get('govern_last_run_resources{status="unchanged"}')).to.equal(1);
      }
      if (name === 'failed') {
        expect(s.get('govern_last_run_resources{status="failed"}')).to.equal(1);
        expect(s.get('govern_last_run_resources{status="skipped"}')).to.equal(1);
      }
      if (name === 'stopped') expect(s.get('govern_last_run_errors')).to.equal(1);
    }
  });

  it('GOVERN_METRICS_FILE sets it; a --noop run leaves it alone', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const file = path.join(tempDir(), 'govern.prom');
    const env = { GOVERN_METRICS_FILE: file, GOVERN_VAR_DIR: path.join(t.dir, 'var') };
    expect((await t.run(['--noop'], env)).code).to.equal(0);
    expect(fs.existsSync(file)).to.equal(false);
    expect((await t.run([], env)).code).to.equal(0);
    expect((await promtool(file)).code).to.equal(0);
  });
});
