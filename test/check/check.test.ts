import { expect } from 'chai';
import AjvDraft04 from 'ajv-draft-04';
import { XMLParser } from 'fast-xml-parser';
import fs from 'node:fs';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** Twenty-one different mistakes in eight files (one of them a module's). */
const TREE: Record<string, string> = {
  'a-parse.hcl': 'pkg "curl" {\n  ensure = present\n}\n',
  'b-keys.hcl': `pgk "nginx" {
  ensure = "present"
}

file "/etc/b1" {
  ensure = "absent"
  ownr   = "root"
}

service "b2" {
  ensure = "runing"
  enable = "yes"
}

file "/etc/b3" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = true
}

file "/etc/c1" {
  ensure = "absent"
  after  = ["pkg:nope"]
}

file "/etc/c4" {
  ensure = "absent"
  notify = ["service:b2:explode"]
}

exec "c5" {
  command = "/bin/true"
  after   = ["exec:c6"]
}

exec "c6" {
  command = "/bin/true"
  after   = ["exec:c5"]
}
`,
  'd-facts.hcl': 'file "/etc/d1" {\n  ensure   = "present"\n  contents = "{{fact "no/such"}}"\n}\n',
  'e-helper.hcl': 'file "/etc/e1" {\n  ensure   = "present"\n  contents = "{{nosuch "x"}}"\n}\n',
  'f-modules.hcl': `module "site1" {
  source = "site"
  colour = "blue"
}

module "site2" {
  source = "site"
  port   = "eighty"
}

module "other" {
  source = "nosuchmodule"
}

module "b" {
  source = "broken"
}
`,
  'g-data.hcl': 'file "/etc/g1" {\n  ensure   = "present"\n  contents = "{{data "no/key"}}"\n}\n',
  'h-dup.hcl': `file "/etc/c1" {
  ensure = "absent"
}

file "/etc/h1" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  template = "nosuch.tmpl"
}

file "/etc/h2" {
  ensure = "present"
  owner  = "root"
  group  = "root"
  mode   = "0644"
  source = "../../etc/passwd"
}

exec "h3" {
  command = "echo ENC[age,to=web,YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo=]"
}
`,
  'modules/site/variables.hcl': 'variable "name" {\n  type = "string"\n}\n\nvariable "port" {\n  type    = "number"\n  default = 80\n}\n',
  'modules/site/site.hcl': 'file "/etc/site-{{name}}" {\n  ensure   = "absent"\n  contents = "{{port}}"\n}\n',
  'modules/broken/variables.hcl': 'variable "size" {\n  type = "strng"\n}\n',
  'modules/broken/broken.hcl': 'exec "b" {\n  command = "/bin/true"\n}\n',
  'hierarchy.hcl': 'levels = ["common"]\n',
  'data/common.hcl': 'x = 1\n',
};

/** Where each mistake is, and a word of what check says of it. */
const EXPECTED: [string, RegExp][] = [
  ['a-parse.hcl:2:12', /present is a bare word/],
  ['b-keys.hcl:1:1', /no runner "pgk".*did you mean "pkg"/],
  ['b-keys.hcl:7:3', /unknown key "ownr" \(did you mean "owner"\?\)/],
  ['b-keys.hcl:11:3', /ensure "runing" is not one of running, stopped/],
  ['b-keys.hcl:12:3', /enable "yes" is not true or false/],
  ['b-keys.hcl:19:3', /mode "true" is not an octal mode/],
  ['b-keys.hcl:24:3', /after names "pkg:nope", which is not a resource/],
  ['b-keys.hcl:29:3', /does not accept the signal "explode"/],
  ['b-keys.hcl:32:1', /dependency cycle: exec:c5 -> exec:c6 -> exec:c5/],
  ['d-facts.hcl:3:3', /fact "no\/such": no such fact in the snapshot/],
  ['e-helper.hcl:3:3', /unknown helper "nosuch"/],
  ['f-modules.hcl:1:1', /module "site1" \(site\): the parameter "name" is required/],
  ['f-modules.hcl:3:3', /unknown parameter "colour"/],
  ['f-modules.hcl:6:1', /module "site2" \(site\): the parameter "name" is required/],
  ['f-modules.hcl:8:3', /port: "eighty" is not a number/],
  ['f-modules.hcl:11:1', /"nosuchmodule" is not a module of this tree/],
  ['g-data.hcl:3:3', /no level has the key "no\/key"/],
  ['h-dup.hcl:1:1', /file:\/etc\/c1 is declared twice/],
  ['h-dup.hcl:10:3', /template "nosuch.tmpl": not found/],
  ['h-dup.hcl:18:3', /is outside the state tree/],
  ['h-dup.hcl:22:3', /command holds an encrypted value/],
  ['modules/broken/variables.hcl:2:3', /type must be one of/],
];

function makeTree(): { tree: string; facts: string } {
  const dir = tempDir();
  const tree = path.join(dir, 'tree');
  for (const [name, text] of Object.entries(TREE)) writeFile(path.join(tree, name), text);
  const facts = writeFile(path.join(dir, 'facts', 'h1.json'), JSON.stringify({ hostname: 'h1', 'os/family': 'debian' }));
  return { tree, facts: path.dirname(facts) };
}

describe('govern check #once', () => {
  let tree = '';
  let facts = '';
  beforeEach(() => ({ tree, facts } = makeTree()));
  const check = (format: string) => govern(['check', '--facts', facts, '--format', format, tree]);

  it('finds every mistake of every file in one call: text, file:line:column: message', async () => {
    const r = await check('text');
    expect(r.code, r.stderr).to.equal(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.pop()).to.equal(`${EXPECTED.length} problems in 8 files (13 files checked)`);
    expect(lines).to.have.length(EXPECTED.length);
    EXPECTED.forEach(([where, said], i) => {
      expect(lines[i].startsWith(`${where}: `), lines[i]).to.equal(true);
      expect(lines[i]).to.match(said);
    });
  });

  it('json: each problem with its file, range and phase, for an editor', async () => {
    const r = await check('json');
    expect(r.code).to.equal(1);
    const report = JSON.parse(r.stdout);
    expect(report.hosts).to.deep.equal(['h1']);
    expect(report.problems.map((p: { file: string; line: number; column: number }) => `${p.file}:${p.line}:${p.column}`)).to.deep.equal(EXPECTED.map(([where]) => where));
    const ownr = report.problems[2];
    expect(ownr).to.include({ file: 'b-keys.hcl', line: 7, column: 3, endLine: 7, endColumn: 18, rule: 'resources' });
    expect(ownr.hosts).to.deep.equal(['h1']);
    expect(report.problems[0]).to.include({ rule: 'state', column: 12, endColumn: 19 });
  });

  it('sarif: valid against the SARIF 2.1.0 schema, one result per problem with its region', async () => {
    const r = await check('sarif');
    expect(r.code).to.equal(1);
    const log = JSON.parse(r.stdout);
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'sarif-schema-2.1.0.json'), 'utf8'));
    const ajv = new AjvDraft04({ strict: false, allErrors: true });
    const valid = ajv.validate(schema, log);
    expect(valid, JSON.stringify(ajv.errors)).to.equal(true);
    const results = log.runs[0].results;
    expect(results).to.have.length(EXPECTED.length);
    const loc = (i: number) => results[i].physicalLocation ?? results[i].locations[0].physicalLocation;
    expect(results.map((_: unknown, i: number) => `${loc(i).artifactLocation.uri}:${loc(i).region.startLine}:${loc(i).region.startColumn}`)).to.deep.equal(EXPECTED.map(([where]) => where));
    expect(results[2]).to.deep.include({ ruleId: 'resources', level: 'error' });
    expect(loc(2).region).to.deep.equal({ startLine: 7, startColumn: 3, endLine: 7, endColumn: 18 });
    // The schema is the one it says: an invalid log is refused.
    expect(ajv.validate(schema, { ...log, version: '2.0.0' })).to.equal(false);
  });

  it('junit: one test case per file checked, a failure per problem, read back by an XML parser', async () => {
    const r = await check('junit');
    expect(r.code).to.equal(1);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' || name === 'failure' }).parse(r.stdout);
    const suite = doc.testsuites.testsuite;
    expect(suite).to.include({ tests: '13', failures: '8' });
    const cases = suite.testcase as { name: string; failure?: { type: string; message: string; '#text': string }[] }[];
    expect(cases.map((c) => c.name)).to.include.members(['a-parse.hcl', 'hierarchy.hcl', 'modules/broken/variables.hcl']);
    expect(cases.find((c) => c.name === 'hierarchy.hcl')!.failure).to.equal(undefined);
    const failures = cases.flatMap((c) => c.failure ?? []);
    expect(failures.map((f) => f['#text'].split(': ')[0])).to.deep.equal(EXPECTED.map(([where]) => where));
    expect(failures[1].message).to.match(/no runner "pgk"/);
  });

  it('without facts: renders with placeholders and says which facts each file reads', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'a.hcl'), 'file "/etc/a" {\n  ensure   = "present"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  contents = "{{fact "os/family"}} {{hostfact "db1" "ip"}}"\n}\n');
    writeFile(path.join(dir, 'b.hcl'), 'pkg "b" {\n  ensure = "present"\n}\n');
    const r = await govern(['check', dir]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('a.hcl: rendered with placeholder facts; it reads db1:ip, os/family (give --facts for the hosts\' own)\n2 files checked: no problem\n');
    expect(r.code).to.equal(0);
    const json = JSON.parse((await govern(['check', '--format', 'json', dir])).stdout);
    expect(json.needsFacts).to.deep.equal({ 'a.hcl': ['db1:ip', 'os/family'] });
  });

  it('finds no problem in the examples, for a host of the fleet example', async () => {
    const snapshot = writeFile(path.join(tempDir(), 'web1.json'), JSON.stringify({ hostname: 'web1', role: 'web', env: 'staging', 'os/family': 'debian', 'os/distribution': 'debian', 'os/release': '12', 'os/arch': 'amd64', 'cpu/count': '2' }));
    for (const name of ['demo', 'web', 'fleet']) {
      const r = await govern(['check', '--facts', snapshot, path.join(ROOT, 'examples', name)]);
      expect(r.stdout, name).to.match(/^\d+ files? checked: no problem\n$/);
      expect(r.code, name).to.equal(0);
    }
  });

  it('exits 2 when the check cannot run at all (no such tree), 1 for problems, 0 for none', async () => {
    const r = await govern(['check', path.join(tree, 'nope')]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/nope: no such file or directory/);
  });
});
