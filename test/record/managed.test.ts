import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { json, tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

describe('resources no longer managed', () => {
  it('reports what left the tree in output, report, status and metrics, until forgotten; noop keeps the list', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\npkg "b" {}\npkg "c" {}\n' });
    const varDir = path.join(t.dir, 'var');
    const metrics = path.join(t.dir, 'govern.prom');
    const env = { GOVERN_VAR_DIR: varDir, GOVERN_METRICS_FILE: metrics };
    const first = await t.run([], env);
    expect(first.code).to.equal(0);
    expect(first.stdout).not.to.contain('no longer managed');

    writeFile(path.join(t.states, 'a.hcl'), 'pkg "a" {}\n');
    const second = await t.run([], env);
    expect(second.code).to.equal(0);
    expect(second.stdout).to.contain('no longer managed: pkg:b\nno longer managed: pkg:c\n');
    const status = await govern(['status'], { env });
    expect(status.code).to.equal(0);
    expect(status.stdout).to.contain('2 no longer managed (pkg:b, pkg:c)');
    expect(status.stdout).to.contain(' no_longer_managed=2;;;0');
    expect(fs.readFileSync(metrics, 'utf8')).to.contain('\ngovern_last_run_no_longer_managed 2\n');
    expect(fs.statSync(path.join(varDir, 'managed.json')).mode & 0o777).to.equal(0o600);

    // Forgetting in noop mode shows the outcome and keeps the list.
    const noop = await t.run(['--noop', '--json', '--forget', 'pkg:b'], env);
    expect(json(noop.stdout).no_longer_managed).to.deep.equal(['pkg:c']);
    const forgotten = await t.run(['--json', '--forget', 'pkg:b', '--forget', 'pkg:zz'], env);
    expect(json(forgotten.stdout).no_longer_managed).to.deep.equal(['pkg:c']);
    expect(forgotten.stderr).to.contain('govern: --forget pkg:zz: not a resource this tree no longer manages; nothing to forget\n');
    expect(json((await t.run(['--json'], env)).stdout).no_longer_managed).to.deep.equal(['pkg:c']);
    // Other trees keep lists of their own.
    const other = tree({ 'x.hcl': 'pkg "x" {}\n' });
    expect((await other.run([], env)).stdout).not.to.contain('no longer managed');
    expect(json((await t.run(['--json'], env)).stdout).no_longer_managed).to.deep.equal(['pkg:c']);
  });

  it('is acknowledged by a run that removes it (ensure = "absent"), which it never does on its own', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\npkg "old" {}\n' });
    const env = { GOVERN_VAR_DIR: path.join(t.dir, 'var') };
    await t.run([], env);
    writeFile(path.join(t.states, 'a.hcl'), 'pkg "a" {}\n');
    const dropped = await t.run([], env);
    expect(dropped.stdout).to.contain('no longer managed: pkg:old\n');
    expect(t.calls().filter((c) => c.includes('old'))).to.have.length(1);
    writeFile(path.join(t.states, 'a.hcl'), 'pkg "a" {}\npkg "old" {\n  ensure = "absent"\n}\n');
    expect((await t.run([], env)).stdout).not.to.contain('no longer managed');
    writeFile(path.join(t.states, 'a.hcl'), 'pkg "a" {}\n');
    const after = await t.run(['--json'], env);
    expect(json(after.stdout)).not.to.have.property('no_longer_managed');
  });
  it('is not written again by a run after which it is the same (no file written and synced for nothing)', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\npkg "b" {}\n' });
    const env = { GOVERN_VAR_DIR: path.join(t.dir, 'var') };
    const file = path.join(t.dir, 'var', 'managed.json');
    await t.run([], env);
    const before = fs.statSync(file);
    expect((await t.run([], env)).code).to.equal(0);
    expect(fs.statSync(file).ino, 'the same file, not one renamed over it').to.equal(before.ino);
    writeFile(path.join(t.states, 'a.hcl'), 'pkg "a" {}\n');
    await t.run([], env);
    expect(fs.statSync(file).ino, 'a changed list is written').to.not.equal(before.ino);
  });
});

describe('resources no longer managed, when the list cannot be read', () => {
  it('warns, applies, and leaves the list as it is', async () => {
    const t = tree({ 'a.hcl': 'pkg "a" {}\n' });
    const varDir = path.join(t.dir, 'var');
    const list = writeFile(path.join(varDir, 'managed.json'), '{ not json');
    const r = await t.run([], { GOVERN_VAR_DIR: varDir });
    expect(r.code).to.equal(0);
    expect(r.stderr).to.match(new RegExp(`govern: ${list}: .*\\(remove it to start the list again\\); resources no longer managed are not tracked by this run\\n`));
    expect(t.calls()).to.deep.equal(['pkg:a']);
    expect(fs.readFileSync(list, 'utf8')).to.equal('{ not json');
  });
});
