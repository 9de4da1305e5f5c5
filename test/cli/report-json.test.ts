// `govern run --json`: the report's fields, the JSON document of a run that stops before applying,
// and every kind of real output validated against the schema in docs/report.md.
import Ajv from 'ajv';
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, ROOT } from '../support/cli.js';
import { json, tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

/** The schema as docs/report.md publishes it: the JSON block after its marker. */
function documentedSchema(): object {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'report.md'), 'utf8');
  const block = /<!-- report-schema -->\n```json\n([\s\S]*?)\n```/.exec(doc);
  if (!block) throw new Error('docs/report.md has no schema block');
  return JSON.parse(block[1]) as object;
}

const validate = new Ajv({ allErrors: true, strict: true }).compile(documentedSchema());

function valid(stdout: string): RunReport {
  const report = json(stdout);
  expect(validate(report), JSON.stringify(validate.errors, null, 1)).to.equal(true);
  return report;
}

describe('govern run --json', () => {
  it('names the host, govern, the start and the state tree, and where each resource is declared', async () => {
    const t = tree({ 'sub/a.hcl': '\npkg "a" {\n  changed = true\n}\n' });
    writeFile(path.join(t.facts, 'fqdn'), 'web1.example.org');
    const before = Date.now();
    const r = await t.run(['--json']);
    const report = valid(r.stdout);
    expect(report.host).to.equal('web1.example.org', 'the fqdn fact');
    expect(report.govern_version).to.equal((JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    const started = Date.parse(report.started_at);
    expect(started).to.be.within(before - 1000, Date.now());
    expect(report.state).to.equal(t.states);
    expect(report.errors).to.deep.equal([]);
    expect(report.resources[0].where).to.equal(`${path.join(t.states, 'sub', 'a.hcl')}:2`);
  });

  it('validates against the documented schema: changes, failures, notifications, noop, tags', async () => {
    const t = tree({
      'a.hcl': 'pkg "a" {\n  changed = true\n  notify = ["service:s:restart", "exec:x"]\n  tags = ["web"]\n}\nservice "s" {\n  fail = true\n}\nexec "x" {}\nexec "after" {\n  after = ["service:s"]\n}\n',
    });
    for (const extra of [[], ['--noop'], ['--tags', 'web'], ['--skip-tags', 'exec']]) valid((await t.run(['--json', ...extra])).stdout);
    const report = valid((await t.run(['--json', '--tags', 'web'])).stdout);
    expect(report.summary).to.include({ resources: 1, excluded: 3 });
    expect(report.notifications.map((n) => [n.to, n.status, n.message])).to.deep.equal([
      ['service:s', 'skipped', 'not sent: service:s is not selected'],
      ['exec:x', 'skipped', 'not sent: exec:x is not selected'],
    ]);
  });

  it('prints a JSON document with every problem when the run stops before applying, and exits 1', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n\nservice "b" {\n  subscribe = ["pkg:nope"]\n}\n', 'b.hcl': 'pkg "c" {\n  state = \n}\n' });
    const r = await t.run(['--json']);
    expect(r.code).to.equal(1);
    const report = valid(r.stdout);
    expect(report.resources).to.deep.equal([]);
    expect(report.errors).to.have.length(1);
    expect(report.errors[0]).to.deep.include({ file: path.join(t.states, 'b.hcl'), line: 2 });
    expect(report.errors[0].message).to.match(/Invalid expression/);
    expect(r.stderr, 'the message is on stderr too').to.match(/b\.hcl:2:\d+: Invalid expression/);
    expect(t.calls()).to.deep.equal([]);

    fs.rmSync(path.join(t.states, 'b.hcl'));
    const reference = valid((await t.run(['--json'])).stdout);
    expect(reference.errors).to.deep.equal([
      { message: 'service:b: subscribe names "pkg:nope", which is not a resource in this state tree', file: path.join(t.states, 'a.hcl'), line: 4 },
    ]);
  });

  it('prints a JSON document for options that cannot be read, from the command line or the environment', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const env = await t.run(['--json'], { GOVERN_JOBS: 'many' });
    expect(env.code).to.equal(1);
    expect(valid(env.stdout).errors).to.deep.equal([{ message: 'GOVERN_JOBS must be a positive whole number, not "many"' }]);
    const flags = await t.run(['--json', '--check', '--runner-mode', 'fast']);
    expect(valid(flags.stdout).errors.map((e) => e.message)).to.deep.equal([
      'unknown option --check (did you mean --noop?); see govern run --help',
      '--runner-mode must be persistent or oneshot, not "fast"',
    ]);
    const missing = await govern(['run', '--json', path.join(t.dir, 'nope')]);
    expect(valid(missing.stdout).errors[0].message).to.match(/no such file or directory/);
    expect(t.calls()).to.deep.equal([]);
  });
});
