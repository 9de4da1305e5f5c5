import { expect } from 'chai';
import path from 'node:path';
import { loadTreeData } from '../../src/data/load.js';
import { parseHcl } from '../../src/hcl/parse.js';
import { UserError } from '../../src/shared/errors.js';
import { tempDir, writeFile } from '../support/tmp.js';

function treeWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFile(path.join(dir, name), text);
  return dir;
}

function load(dir: string, hierarchy: string) {
  const file = path.join(dir, 'hierarchy.hcl');
  return loadTreeData(dir, parseHcl(file, hierarchy), (line) => ({ file, line }));
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e.message.split('\n');
    throw e;
  }
  throw new Error('no error');
}

describe('data hierarchy lookup #once', () => {
  const files = {
    'data/hosts/web1.json': '{\n  "nginx": {"workers": 8},\n  "ntp": {"servers": ["host.pool"]}\n}\n',
    'data/roles/web.yaml': 'nginx:\n  workers: 4\n  sites: [shop]\nntp:\n  servers: [role.pool, common.pool]\nusers:\n  bob: {uid: 1001}\n',
    'data/common.hcl': 'nginx = { workers = 2, user = "www-data" }\nntp = { servers = ["common.pool"] }\nusers = { alice = { uid = 1000 } }\nmodules = ["ntp", "motd"]\n',
  };

  it('answers from the first level that has the key, in hierarchy order, and skips missing files', () => {
    const data = load(treeWith(files), 'levels = ["hosts/web1", "hosts/none", "roles/web", "common"]\n');
    expect(data.lookup('nginx/workers')).to.deep.include({ value: 8 });
    expect(data.lookup('nginx/workers')!.origins).to.deep.equal([{ level: 'hosts/web1', file: path.join(path.dirname(data.lookup('nginx/workers')!.origins[0].file), 'web1.json'), line: 2 }]);
    expect(data.lookup('nginx/sites')!.value).to.deep.equal(['shop']);
    expect(data.lookup('nginx/user')!.value).to.equal('www-data');
    expect(data.lookup('nginx/missing')).to.equal(undefined);
    // The whole map comes from the first level that has it: no merge unless asked.
    expect(data.lookup('nginx')!.value).to.deep.equal({ workers: 8 });
  });

  it('merges the keys hierarchy.hcl names: unique lists in level order, deep maps', () => {
    const data = load(treeWith(files), 'levels = ["hosts/web1", "roles/web", "common"]\nmerge = { "ntp/servers" = "unique", "users" = "deep" }\n');
    const servers = data.lookup('ntp/servers')!;
    expect(servers.value).to.deep.equal(['host.pool', 'role.pool', 'common.pool']);
    expect(servers.origins.map((o) => o.level)).to.deep.equal(['hosts/web1', 'roles/web', 'common']);
    expect(data.lookup('users')!.value).to.deep.equal({ alice: { uid: 1000 }, bob: { uid: 1001 } });
  });

  it('explains every level of a search, with the file and line of each answer', () => {
    const data = load(treeWith(files), 'levels = ["hosts/web1", "hosts/none", "roles/web", "common"]\n');
    const e = data.explain('users');
    expect(e.strategy).to.equal('first');
    expect(e.steps.map((s) => [s.level, s.file && path.basename(s.file), s.found, s.line])).to.deep.equal([
      ['hosts/web1', 'web1.json', false, undefined],
      ['hosts/none', undefined, false, undefined],
      ['roles/web', 'web.yaml', true, 6],
      ['common', 'common.hcl', true, 3],
    ]);
    expect(e.result!.value).to.deep.equal({ bob: { uid: 1001 } });
  });

  it('merges modules as unique unless hierarchy.hcl says otherwise', () => {
    const tree = treeWith({ ...files, 'data/roles/web.yaml': 'modules: [ntp, nginx]\n' });
    expect(load(tree, 'levels = ["roles/web", "common"]\n').lookup('modules')!.value).to.deep.equal(['ntp', 'nginx', 'motd']);
    expect(load(tree, 'levels = ["roles/web", "common"]\nmerge = { modules = "first" }\n').lookup('modules')!.value).to.deep.equal(['ntp', 'nginx']);
  });

  it('reports every problem of hierarchy.hcl at its line', () => {
    const tree = treeWith(files);
    const problems = problemsOf(() => load(tree, 'levels = ["roles/", "common.hcl", "a/../b"]\nmerge = { "x" = "hash", "y" = "uniqe" }\nlevel = 1\n'));
    expect(problems).to.deep.equal([
      `${tree}/hierarchy.hcl:1: level "roles/" has an empty part: does a fact it uses have an empty value?`,
      `${tree}/hierarchy.hcl:1: level "common.hcl": name the data file without its extension (govern finds .hcl, .json, .yaml or .yml)`,
      `${tree}/hierarchy.hcl:1: level "a/../b" is not a data file name under data/ (letters, digits, _, - and ., parts joined by /)`,
      `${tree}/hierarchy.hcl:2: merge: "x" = "hash": the strategy is one of "first", "unique", "deep"`,
      `${tree}/hierarchy.hcl:2: merge: "y" = "uniqe": the strategy is one of "first", "unique", "deep" (did you mean "unique"?)`,
      `${tree}/hierarchy.hcl:3: unknown attribute "level" (did you mean "levels"?): hierarchy.hcl holds levels = [...] and merge = { ... }`,
    ]);
  });

  it('reports bad data files with their lines, all at once', () => {
    const tree = treeWith({
      'data/a.yaml': 'x: 1\nx: 2\n',
      'data/b.json': '{"when": 1,\n "bad": [1, }\n',
      'data/c.hcl': 'x = 1\nx = 2\n',
      'data/d.hcl': 'x = 1\n',
      'data/d.yaml': 'x: 1\n',
    });
    const problems = problemsOf(() => load(tree, 'levels = ["a", "b", "c", "d"]\n'));
    expect(problems[0]).to.match(new RegExp(`^${tree}/data/a.yaml:2: .*[Mm]ap keys must be unique`));
    expect(problems[1]).to.match(new RegExp(`^${tree}/data/b.json:2: `));
    // The parser or the data reader: either way at the second line.
    expect(problems.some((p) => p.startsWith(`${tree}/data/c.hcl:2`)), problems.join('\n')).to.equal(true);
    expect(problems).to.include(`${tree}/data/d.yaml: level "d" has two data files, d.hcl and d.yaml: keep one`);
  });

  it('refuses a merge of values that cannot merge, naming the level and line', () => {
    const tree = treeWith({ 'data/a.yaml': 'users: [alice]\n', 'data/b.yaml': 'users: {bob: {}}\n' });
    const data = load(tree, 'levels = ["a", "b"]\nmerge = { users = "deep" }\n');
    expect(() => data.lookup('users')).to.throw(`data "users" at level "a" (${tree}/data/a.yaml:1): merge "deep" joins maps, and this value is a list`);
  });
});
