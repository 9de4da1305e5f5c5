import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { readCalls } from '../support/recording-runner.js';
import { tree } from '../support/state-tree.js';
import { writeFile } from '../support/tmp.js';

const HIERARCHY = 'levels = ["hosts/{{fact "hostname"}}", "roles/{{fact "role"}}", "common"]\nmerge = { "ntp/servers" = "unique", "users" = "deep" }\n';
const DATA = {
  'hierarchy.hcl': HIERARCHY,
  'data/common.hcl': 'ntp = { servers = ["common.pool"] }\nusers = { alice = { uid = 1000, shell = "/bin/bash" } }\nmotd = "welcome"\nworkers = 2\n',
  'data/roles/web.yaml': 'ntp:\n  servers: [web.pool, common.pool]\nusers:\n  alice: {shell: /bin/zsh}\nworkers: 8\n',
  'data/hosts/web1.json': '{"motd": "web1 \\"only\\""}\n',
};

function fleetTree(files: Record<string, string>, facts: Record<string, string> = { hostname: 'web1', role: 'web' }) {
  const t = tree({ ...DATA, ...files });
  for (const [name, value] of Object.entries(facts)) writeFile(path.join(t.facts, name), value);
  return t;
}

describe('data in templates and govern data', () => {
  it('gives state files typed values from the hierarchy, merged where hierarchy.hcl says', async () => {
    const t = fleetTree({
      'site.hcl': [
        'stuff "ntp" {',
        '  servers = [{{#each (data "ntp/servers")}}{{quote this}}, {{/each}}]',
        '  motd = {{quote (data "motd")}}',
        '  size = "{{#if (gt (data "workers") 4)}}big{{else}}small{{/if}}"',
        '  {{#with (data "users")}}shell = {{quote alice.shell}}\n  uid = {{alice.uid}}{{/with}}',
        '  cache = {{data "cache/size" default=64}}',
        '}',
        '',
      ].join('\n'),
    });
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    const [call] = readCalls(t.log);
    expect(call.args).to.deep.equal(['servers=web.pool', 'servers=common.pool', 'motd=web1 "only"', 'size=big', 'shell=/bin/zsh', 'uid=1000', 'cache=64']);
  });

  it('another host, with other facts, sees its own levels', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "x" {\n  motd = {{quote (data "motd")}}\n  workers = {{data "workers"}}\n}\n' }, { hostname: 'db1', role: 'db' });
    expect((await t.run()).code).to.equal(0);
    expect(readCalls(t.log)[0].args).to.deep.equal(['motd=welcome', 'workers=2']);
  });

  it('a missing key is an error naming the template file and line, and nothing is applied', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "a" {\n}\nstuff "b" {\n  port = {{data "nginx/port"}}\n}\n' });
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/site.hcl:4: data: no level has the key "nginx/port" (levels searched: hosts/web1, roles/web, common; see govern data --explain nginx/port); or give a default: {{data "nginx/port" default=...}}`);
    expect(readCalls(t.log)).to.deep.equal([]);
  });

  it('a level needing a fact the host does not have is an error at its line of hierarchy.hcl', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "a" {\n}\n' }, { hostname: 'web1' });
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`${t.states}/hierarchy.hcl:1: fact "role": no such fact`));
    expect(readCalls(t.log)).to.deep.equal([]);
  });

  it('a level whose fact is empty is an error, not a level that silently has no data', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "a" {\n}\n' }, { hostname: 'web1', role: '' });
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/hierarchy.hcl:1: level "roles/" has an empty part: does a fact it uses have an empty value?`);
  });

  it('hierarchy.hcl and data/ are not state files, with or without hierarchy.hcl', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "a" {\n}\n' });
    expect((await t.run()).code).to.equal(0);
    expect(readCalls(t.log).map((c) => c.name)).to.deep.equal(['a']);
    const plain = tree({ 'site.hcl': 'stuff "a" {\n}\n', 'data/site.hcl': 'stuff "b" {\n}\n' });
    expect((await plain.run()).code).to.equal(0);
    expect(readCalls(plain.log).map((c) => c.name)).to.deep.equal(['a']);
    const noData = tree({ 'site.hcl': 'stuff "c" {\n  x = {{data "x" default="none"}}\n}\nstuff "d" {\n  y = {{data "y"}}\n}\n' });
    const r = await noData.run();
    expect(r.stderr).to.contain(`site.hcl:5: data: no data for "y": this tree has no hierarchy.hcl at its root (docs/data.md)`);
  });

  it('govern data prints every key this host sees, or the keys named, as text or JSON #once', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "a" {\n}\n' });
    const all = await govern(['data', '--facts-dir', t.facts, t.states]);
    expect(all.stderr).to.equal('');
    expect(all.stdout).to.equal('motd\tweb1 "only"\nntp\t{"servers":["web.pool","common.pool"]}\nusers\t{"alice":{"uid":1000,"shell":"/bin/zsh"}}\nworkers\t8\n');
    const named = await govern(['data', '--json', '--facts-dir', t.facts, 'ntp/servers', 'users', t.states]);
    expect(JSON.parse(named.stdout)).to.deep.equal({ 'ntp/servers': ['web.pool', 'common.pool'], users: { alice: { uid: 1000, shell: '/bin/zsh' } } });
    const missing = await govern(['data', '--facts-dir', t.facts, 'workers', 'nope', t.states]);
    expect(missing.code).to.equal(1);
    expect(missing.stdout).to.equal('workers\t8\n');
    expect(missing.stderr).to.contain('no level has the key "nope" (levels: hosts/web1, roles/web, common)');
  });

  it('govern data --explain lists every level, its file, and which answered or how the merge was built #once', async () => {
    const t = fleetTree({ 'site.hcl': 'stuff "a" {\n}\n' });
    const r = await govern(['data', '--explain', '--facts-dir', t.facts, 'workers', 'ntp/servers', t.states]);
    expect(r.code).to.equal(0);
    const d = (name: string) => path.join(t.states, 'data', name);
    expect(r.stdout).to.equal(
      [
        'workers (the first level that has it answers):',
        `  1. hosts/web1  ${d('hosts/web1.json')}: no such key`,
        `  2. roles/web  ${d('roles/web.yaml')}:5: 8  <- answers`,
        `  3. common  ${d('common.hcl')}:4: 2  (not used: a more specific level answered)`,
        '  => 8 (from roles/web)',
        '',
        'ntp/servers (merge "unique"):',
        `  1. hosts/web1  ${d('hosts/web1.json')}: no such key`,
        `  2. roles/web  ${d('roles/web.yaml')}:2: ["web.pool","common.pool"]  <- merged`,
        `  3. common  ${d('common.hcl')}:1: ["common.pool"]  <- merged`,
        '  => ["web.pool","common.pool"] (from roles/web, common)',
        '',
      ].join('\n'),
    );
    const other = await govern(['data', '--explain', '--json', '--facts-dir', t.facts, 'motd', t.states], { env: {} });
    const [e] = JSON.parse(other.stdout);
    expect(e.steps.map((s: { level: string; found: boolean }) => [s.level, s.found])).to.deep.equal([['hosts/web1', true], ['roles/web', false], ['common', true]]);
    expect(e.result.origins).to.deep.equal([{ level: 'hosts/web1', file: d('hosts/web1.json'), line: 1 }]);
  });

  it('govern data refuses a tree without hierarchy.hcl, and a bad key #once', async () => {
    const t = tree({ 'site.hcl': 'stuff "a" {\n}\n' });
    const r = await govern(['data', t.states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}: no hierarchy.hcl here, so no data (docs/data.md)`);
    expect(fs.existsSync(t.log)).to.equal(false);
    const bad = await govern(['data', 'a//b', t.states]);
    expect(bad.stderr).to.contain('"a//b" is not a data key');
  });
});
