import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { repository, snapshots } from '../support/preview.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** A runner a tree ships in runners.d: describes itself with no keys, and does nothing else. */
const TREE_RUNNER = '#!/bin/sh\n[ "${GOVERN_DESCRIBE:-}" = 1 ] && { echo \'{"keys": {"word": {"type": "string"}}}\'; exit 0; }\necho message=ok\n';

const FILE = (name: string, body: string) => `file "${name}" {\n  ensure = "present"\n  owner  = "root"\n  group  = "root"\n  mode   = "0644"\n${body}}\n`;

describe('govern diff of a revision nobody reviewed yet #once', () => {
  const hosts = () => snapshots({ web1: { role: 'web' } });

  it('reads no file outside the tree: no link out, no .. out, for each kind of file planning reads', async () => {
    // What a CI user has outside the checkout, which the revision must not get into its diff.
    const home = tempDir('govern-home-');
    const leak = (name: string, text: string) => writeFile(path.join(home, name), text);
    leak('motd', 'HOME-SECRET motd\n');
    leak('partial', 'HOME-SECRET partial\n');
    leak('common.yaml', 'motd: HOME-SECRET data\n');
    leak('hierarchy.hcl', 'levels = ["common"]\n');
    leak('site/site.hcl', FILE('/etc/site', '  contents = "HOME-SECRET module"\n'));
    leak('file.txt', 'HOME-SECRET source\n');
    const repo = repository();
    const a = repo.commit({ 'states/a.hcl': FILE('/etc/a', '  contents = "a"\n') }, 'a');
    const link = (name: string, to: string) => {
      fs.mkdirSync(path.dirname(path.join(repo.dir, name)), { recursive: true });
      fs.symlinkSync(to, path.join(repo.dir, name));
    };
    link('states/templates.d/motd', path.join(home, 'motd'));
    link('states/templates.d/partial', path.join(home, 'partial'));
    const b = repo.commit({
      'states/a.hcl': FILE('/etc/a', '  contents = "a"\n'),
      'states/motd.hcl': FILE('/etc/motd', '  template = "motd"\n'),
      'states/environ.hcl': FILE('/etc/environ', '  template = "./../../../../../../../../proc/self/environ"\n'),
      'states/absolute.hcl': FILE('/etc/absolute', `  template = "${path.join(home, 'motd')}"\n`),
      'states/templates.d/page': 'page {{> partial}}\n',
      'states/page.hcl': FILE('/etc/page', '  template = "page"\n'),
      'states/source.hcl': FILE('/etc/copied', `  source = "${path.relative(path.join(repo.dir, 'states'), path.join(home, 'file.txt'))}"\n`),
    }, 'b');
    const r = await govern(['diff', '--no-cache', '--facts', hosts(), a, b, 'states'], { cwd: repo.dir, env: { SECRET_OF_THE_CI_JOB: 'HOME-SECRET environ' } });
    expect(r.stdout + r.stderr).not.to.contain('HOME-SECRET');
    expect(r.code).to.equal(1);
    const refused = (file: string) => expect(r.stderr, r.stderr).to.match(new RegExp(`${file}.*outside the state tree`));
    refused('motd.hcl:[0-9]+: file:/etc/motd: template "motd": a link to');
    refused('environ.hcl:[0-9]+: file:/etc/environ: template "./../');
    refused('absolute.hcl:[0-9]+: file:/etc/absolute: template "/');
    refused('templates.d/page:1: partial "partial": .*templates.d/partial: a link to');
    // Relative sources are checked once templates read: a revision with only that.
    for (const name of ['motd', 'environ', 'absolute', 'page']) fs.rmSync(path.join(repo.dir, `states/${name}.hcl`));
    const source = await govern(['diff', '--no-cache', '--facts', hosts(), a, repo.commit({}, 'only the source'), 'states'], { cwd: repo.dir });
    expect(source.stderr).to.match(/source\.hcl:[0-9]+: file:\/etc\/copied: source "\.\.\/.*is outside the state tree/);
    expect(source.code).to.equal(1);

    // The data layer: hierarchy.hcl, then a level's file, each a link out.
    const c = (() => {
      link('states/hierarchy.hcl', path.join(home, 'hierarchy.hcl'));
      return repo.commit({ 'states/source.hcl': null }, 'c');
    })();
    const hierarchy = await govern(['diff', '--no-cache', '--facts', hosts(), a, c, 'states'], { cwd: repo.dir });
    expect(hierarchy.stderr).to.match(/hierarchy\.hcl: a link to .*, outside the state tree/);
    fs.rmSync(path.join(repo.dir, 'states/hierarchy.hcl'));
    link('states/data/common.yaml', path.join(home, 'common.yaml'));
    const d = repo.commit({ 'states/hierarchy.hcl': 'levels = ["common"]\n', 'states/motd.hcl': FILE('/etc/motd', '  contents = {{quote (data "motd")}}\n') }, 'd');
    const data = await govern(['diff', '--no-cache', '--facts', hosts(), a, d, 'states'], { cwd: repo.dir });
    expect(data.stdout + data.stderr).not.to.contain('HOME-SECRET');
    expect(data.stderr).to.match(/data\/common\.yaml: a link to .*, outside the state tree/);
    expect(data.code).to.equal(1);

    // A module: its directory a link out.
    fs.rmSync(path.join(repo.dir, 'states/hierarchy.hcl'));
    fs.rmSync(path.join(repo.dir, 'states/data'), { recursive: true });
    link('states/modules/site', path.join(home, 'site'));
    const e = repo.commit({ 'states/motd.hcl': null, 'states/site.hcl': 'module "one" {\n  source = "site"\n}\n' }, 'e');
    const module = await govern(['diff', '--no-cache', '--facts', hosts(), a, e, 'states'], { cwd: repo.dir });
    expect(module.stdout + module.stderr).not.to.contain('HOME-SECRET');
    expect(module.stderr).to.match(/modules\/site\/site\.hcl: a link to .*, outside the state tree/);
  });

  it('reads a link that stays inside the tree, and the host\'s own templates directories', async () => {
    const repo = repository();
    const a = repo.commit({ 'states/a.hcl': FILE('/etc/a', '  contents = "a"\n'), 'states/templates.d/real': 'inside {{fact "role"}}\n' }, 'a');
    fs.symlinkSync('real', path.join(repo.dir, 'states/templates.d/alias'));
    const host = tempDir('govern-host-templates-');
    writeFile(path.join(host, 'shared'), 'shared template\n');
    const b = repo.commit({ 'states/b.hcl': FILE('/etc/b', '  template = "alias"\n') + FILE('/etc/c', '  template = "shared"\n') }, 'b');
    const r = await govern(['diff', '--no-cache', '--templates-dir', host, '--facts', hosts(), a, b, 'states'], { cwd: repo.dir });
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.contain('inside web');
    expect(r.stdout).to.contain('shared template');
    expect(r.code).to.equal(2);
  });

  it('runs as root with a runners.d: the revision is unpacked with no group or other write bit', async function () {
    if (os.userInfo().uid !== 0) this.skip(); // the refusal of a group-writable runner matters as root
    const repo = repository();
    fs.mkdirSync(path.join(repo.dir, 'states/runners.d'), { recursive: true });
    fs.writeFileSync(path.join(repo.dir, 'states/runners.d/greet'), TREE_RUNNER, { mode: 0o755 });
    const a = repo.commit({ 'states/a.hcl': 'greet "x" {\n  word = "a"\n}\n' }, 'a');
    const b = repo.commit({ 'states/a.hcl': 'greet "x" {\n  word = "b"\n}\n' }, 'b');
    const r = await govern(['diff', '--no-cache', '--facts', hosts(), a, b, 'states'], { cwd: repo.dir });
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.contain('greet:x changed on 1 host: web1\n    word: "a" -> "b"\n');
    expect(r.code).to.equal(2);
  });
});
