import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tree } from '../support/state-tree.js';
import { snapshots } from '../support/preview.js';
import { tempDir, writeFile } from '../support/tmp.js';

const STATES = {
  'a.hcl': `
pkg "nginx" {
  version = {{quote (fact "os/family")}}
}
file "/etc/motd" {
  contents = {{quote (concat "db " (hostfact "db1" "ip"))}}
  after    = ["pkg:nginx"]
  tags     = ["base"]
}
file "/etc/secret.conf" {
  contents  = {{quote (fact "secret/token")}}
}
exec "hidden" {
  command   = "echo hunter22"
  sensitive = true
}
`,
};

describe('govern plan #once', () => {
  it('plans each snapshot of a directory without calling a runner, hidden values masked', async () => {
    const t = tree(STATES);
    const facts = snapshots({
      web1: { 'os/family': 'debian', 'secret/token': 's3cr3t-token' },
      web2: { 'os/family': 'redhat' },
      db1: { 'os/family': 'debian', ip: '10.0.0.5' },
    });
    const r = await govern(['plan', '--json', '--facts', facts, '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    expect(r.stdout).not.to.contain('s3cr3t-token');
    expect(r.stdout).not.to.contain('hunter22');
    const { hosts } = JSON.parse(r.stdout);
    expect(hosts.map((h: { host: string }) => h.host)).to.deep.equal(['db1', 'web1', 'web2']);
    const web2 = hosts[2].resources;
    expect(web2.map((v: { ref: string; order: number }) => `${v.order} ${v.ref}`)).to.deep.equal(['1 pkg:nginx', '2 file:/etc/motd', '3 file:/etc/secret.conf', '4 exec:hidden']);
    expect(web2[0]).to.include({ at: 'a.hcl:2' });
    expect(web2[0].attrs).to.deep.equal({ version: 'redhat' });
    expect(hosts[1].resources[0].attrs).to.deep.equal({ version: 'debian' });
    expect(web2[1]).to.deep.include({ attrs: { contents: 'db 10.0.0.5' }, tags: ['base'], after: ['pkg:nginx'] });
    // A secret fact the snapshot left out, or holds, is never shown.
    expect(web2[2]).to.deep.include({ attrs: { contents: '<sensitive>' }, sensitive: true });
    expect(hosts[1].resources[2]).to.deep.include({ attrs: { contents: '<sensitive>' }, hidden: ['contents'] });
    expect(web2[3]).to.deep.include({ attrs: { command: '<sensitive>' }, sensitive: true });
    expect(web2[0]).not.to.have.property('module');
    expect(t.calls()).to.deep.equal([]);
  });

  it('prints one host as text with --host', async () => {
    const t = tree(STATES);
    const facts = snapshots({ web1: { 'os/family': 'debian' }, db1: { ip: '10.0.0.5' } });
    const r = await govern(['plan', '--facts', facts, '--host', 'web1', '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.match(/^host web1 \(facts: .*web1\.json\): 4 resources\n  1\. pkg:nginx \(a\.hcl:2\)\n {7}version = "debian"\n  2\. file:\/etc\/motd/);
    expect(r.stdout).to.contain('       after: pkg:nginx\n');
  });

  it('lists the tree\'s health checks for each host: name, kind, file:line and keys, after the resources', async () => {
    const t = tree({
      'a.hcl': 'pkg "nginx" {}\nhealth "nginx answers" {\n  port    = {{fact "web/port"}}\n  timeout = "5s"\n  retries = 2\n}\n',
      'b.hcl': 'health "motd" {\n  file     = "/etc/motd"\n  contains = "db"\n}\n',
    });
    const facts = snapshots({ web1: { 'web/port': '80' }, web2: { 'web/port': '8080' } });
    const r = await govern(['plan', '--facts', facts, '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    const web2 = r.stdout.slice(r.stdout.indexOf('host web2'));
    expect(web2).to.match(/^host web2 \(facts: .*web2\.json\): 1 resource, 2 health checks\n/);
    expect(web2.slice(web2.indexOf('\n') + 1)).to.equal(
      [
        '  1. pkg:nginx (a.hcl:1)',
        '  health "nginx answers" (a.hcl:2): port',
        '       port = 8080',
        '       timeout = "5s"',
        '       retries = 2',
        '  health "motd" (b.hcl:1): file',
        '       file = "/etc/motd"',
        '       contains = "db"',
        '',
      ].join('\n'),
    );
    const { hosts } = JSON.parse((await govern(['plan', '--json', '--facts', facts, '--runners-dir', t.runners, '--no-cache', t.states])).stdout);
    expect(hosts[0].health).to.deep.equal([
      { name: 'nginx answers', kind: 'port', at: 'a.hcl:2', keys: { port: 80, timeout: '5s', retries: 2 } },
      { name: 'motd', kind: 'file', at: 'b.hcl:1', keys: { file: '/etc/motd', contains: 'db' } },
    ]);
    expect(t.calls()).to.deep.equal([]);
  });

  it('reports every problem with its file and line, for every host, and exits 1', async () => {
    const t = tree({
      'a.hcl': `pkg "a" {\n  after = ["pkg:nope"]\n}\npkg "b" {\n  version = {{quote (fact "os/missing")}}\n  before = ["pkg:zzz"]\n}\n`,
    });
    const facts = snapshots({ web1: {}, web2: {} });
    const r = await govern(['plan', '--json', '--facts', facts, '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(r.code).to.equal(1);
    const { hosts } = JSON.parse(r.stdout);
    expect(hosts).to.have.length(2);
    for (const h of hosts) {
      expect(h.resources).to.equal(undefined);
      expect(h.errors.join('\n')).to.match(/^a\.hcl:5: .*os\/missing.*no such fact in the snapshot/);
    }
    const text = await govern(['plan', '--facts', path.join(facts, 'web1.json'), '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(text.code).to.equal(1);
    expect(text.stdout).to.match(/^host web1 \(facts: .*\): planning failed: \d+ problems? \(on stderr\)\n$/);
    expect(text.stderr).to.match(/^govern: a\.hcl:5: /m);
  });

  it('tells each problem once (on stderr) and each warning once per host, naming the host', async () => {
    const t = tree({
      'hierarchy.hcl': 'levels = [\n  "roles/{{fact "role"}}",\n  "common",\n]\n',
      'data/common.hcl': 'x = 1\n',
      'a.hcl': `pkg "a" {\n  version = {{quote (fact "os/missing")}}\n}\n`,
    });
    const facts = snapshots({ web1: { role: 'web' }, web2: { role: 'web' } });
    const r = await govern(['plan', '--facts', facts, '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(r.code).to.equal(1);
    const warning = 'hierarchy.hcl:2: roles/web: no file';
    expect(r.stderr.split('\n').filter((l) => l.includes(warning)).map((l) => l.replace(/^govern: (\w+): .*/, '$1'))).to.deep.equal(['web1', 'web2']);
    expect(r.stdout).not.to.contain('a.hcl:2');
    expect(r.stderr.split('\n').filter((l) => l.includes('a.hcl:2: ')).map((l) => l.replace(/^govern: (\w+): a\.hcl:2: .*/, '$1'))).to.deep.equal(['web1', 'web2']);
    const one = await govern(['plan', '--facts', path.join(facts, 'web1.json'), '--runners-dir', t.runners, '--no-cache', t.states]);
    expect(one.stderr.split('\n').filter((l) => l.includes(warning))).to.deep.equal([`govern: ${t.states}/${warning} (data/roles/web.hcl, .json, .yaml or .yml); this level is named from facts: check them, or write it { name = "...", optional = true } when a host may have none`]);
    expect(`${one.stdout}${one.stderr}`.split('a.hcl:2: ')).to.have.length(2);
  });

  it('refuses a snapshot that is not a JSON object of strings, naming the file', async () => {
    const t = tree(STATES);
    const dir = tempDir();
    const bad = writeFile(path.join(dir, 'web1.json'), '{"os/family": 3}');
    const r = await govern(['plan', '--facts', bad, '--runners-dir', t.runners, t.states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${bad}: fact os/family: the value is not a string\n`);
    const none = await govern(['plan', '--facts', dir, '--host', 'web9', '--runners-dir', t.runners, t.states]);
    expect(none.stderr).to.equal(`govern: no facts snapshot for host web9 in ${dir} (there: web1)\n`);
  });
});

describe('govern plan --explain #once', () => {
  it('names the state file and line of each value, the facts it read and the snapshots they came from', async () => {
    const t = tree({ ...STATES, 'b.hcl': 'file "/etc/t" {\n  template = "./t.hbs"\n  vars     = { who = "x" }\n}\n', 't.hbs': '# a template\nhello {{who}} on {{fact "os/family"}}\n' });
    const facts = snapshots({ web2: { 'os/family': 'redhat' }, db1: { ip: '10.0.0.5' } });
    const explain = (what: string, extra: string[] = []) =>
      govern(['plan', '--facts', facts, '--host', 'web2', '--runners-dir', t.runners, '--no-cache', '--explain', what, ...extra, t.states]);
    const motd = await explain('file:/etc/motd');
    expect(motd.stderr).to.equal('');
    expect(motd.stdout).to.equal(
      `file:/etc/motd (a.hcl:5)\n  contents = "db 10.0.0.5"\n    written at a.hcl:6\n    fact db1:ip = "10.0.0.5", from ${path.join(facts, 'db1.json')}\n`,
    );
    const version = await explain('pkg:nginx/version', ['--json']);
    expect(JSON.parse(version.stdout)).to.deep.equal({
      ref: 'pkg:nginx',
      at: 'a.hcl:2',
      keys: [{ key: 'version', value: 'redhat', at: 'a.hcl:3', facts: [{ name: 'os/family', value: 'redhat', from: path.join(facts, 'web2.json') }] }],
    });
    const secret = await explain('file:/etc/secret.conf/contents');
    expect(secret.stdout).to.equal(`file:/etc/secret.conf (a.hcl:10)\n  contents = "<sensitive>"\n    written at a.hcl:11\n    fact secret/token = "<sensitive>", from ${path.join(facts, 'web2.json')}\n`);
    const templated = await explain('file:/etc/t/contents');
    // The template's lines, the variables it reads and the facts it reads itself.
    expect(templated.stdout).to.equal(
      [
        'file:/etc/t (b.hcl:1)',
        '  contents = "# a template\\nhello x on redhat\\n"',
        '    rendered from template ./t.hbs (t.hbs), named at b.hcl:2',
        '        2 | hello {{who}} on {{fact "os/family"}}',
        '    var who = "x", given by vars at b.hcl:3',
        `    fact os/family = "redhat", from ${path.join(facts, 'web2.json')}`,
        '',
      ].join('\n'),
    );
    const wrong = await explain('pkg:nginx/versio');
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.equal('govern: pkg:nginx has no key "versio" (did you mean "version"?)\n');
  });
});

describe('govern plan --explain through data and modules #once', () => {
  const COMPOSED = {
    'hierarchy.hcl': 'levels = ["roles/{{fact "role"}}", "common"]\nmerge = { "ntp/servers" = "unique" }\n',
    'data/common.hcl': 'motd = "hello"\nntp = { servers = ["a.example.org"] }\nmodules = ["tools"]\nsite = { port = 8080 }\n',
    'data/roles/web.yaml': 'ntp:\n  servers: [b.example.org]\n',
    'a.hcl':
      'file "/etc/motd" {\n  contents = {{quote (data "motd")}}\n}\n' +
      'file "/etc/ntp.conf" {\n  contents = "{{#each (data "ntp/servers")}}server {{this}} {{/each}}"\n}\n' +
      'pkg "extra" {\n  version = {{quote (data "nope" default="1.0")}}\n}\n' +
      'module "shop" {\n  source = "site"\n  name   = "shop.example.org"\n}\n' +
      'exec "hidden" {\n  command   = {{quote (data "motd")}}\n  sensitive = true\n}\n',
    'modules/site/variables.hcl': 'variable "name" {\n  type = "string"\n}\nvariable "port" {\n  type = "number"\n}\nvariable "tls" {\n  type    = "string"\n  default = "off"\n}\n',
    'modules/site/site.hcl':
      'file "/etc/site/{{name}}" {\n  contents = "{{name}} {{port}} {{tls}}"\n}\n' +
      'file "/etc/site/{{name}}.conf" {\n  template = "vhost.conf"\n  vars     = { port = {{port}}, family = {{quote (fact "os/family")}} }\n}\n',
    'modules/site/templates.d/vhost.conf': 'listen {{port}} {{family}}\n# {{data "motd"}} to {{fact "role"}}\n',
    'modules/tools/variables.hcl': 'variable "level" {\n  type    = "string"\n  default = "basic"\n}\n',
    'modules/tools/tools.hcl': 'pkg "tools" {\n  version = {{quote level}}\n}\n',
  };

  it('names the data key, the level that answered or the merge, and its file', async () => {
    const t = tree(COMPOSED);
    const facts = snapshots({ web1: { role: 'web', 'os/family': 'debian' } });
    const explain = (what: string, extra: string[] = []) => govern(['plan', '--facts', facts, '--host', 'web1', '--runners-dir', t.runners, '--no-cache', '--explain', what, ...extra, t.states]);
    const motd = await explain('file:/etc/motd');
    expect(motd.stderr).to.equal('');
    expect(motd.stdout).to.equal('file:/etc/motd (a.hcl:1)\n  contents = "hello"\n    written at a.hcl:2\n    data "motd" = "hello", from common (data/common.hcl:1)\n');
    const ntp = await explain('file:/etc/ntp.conf/contents', ['--json']);
    expect(JSON.parse(ntp.stdout).keys[0].data).to.deep.equal([
      { key: 'ntp/servers', value: ['b.example.org', 'a.example.org'], strategy: 'unique', levels: [{ level: 'roles/web', at: 'data/roles/web.yaml:2' }, { level: 'common', at: 'data/common.hcl:2' }] },
    ]);
    expect((await explain('file:/etc/ntp.conf')).stdout).to.contain(
      '    data "ntp/servers" = ["b.example.org","a.example.org"], merged ("unique") from roles/web (data/roles/web.yaml:2), common (data/common.hcl:2)\n',
    );
    expect((await explain('pkg:extra')).stdout).to.contain('  version = "1.0"\n    written at a.hcl:8\n    data "nope": no level has it (the call\'s default)\n');
    const hidden = await explain('exec:hidden');
    expect(hidden.stdout).to.equal('exec:hidden (a.hcl:14)\n  command = "<sensitive>"\n    written at a.hcl:15\n    data "motd" = "<sensitive>", from common (data/common.hcl:1)\n');
  });

  it('names the module instance, and where each parameter the key reads came from', async () => {
    const t = tree(COMPOSED);
    const facts = snapshots({ web1: { role: 'web', 'os/family': 'debian' } });
    const r = await govern(['plan', '--facts', facts, '--host', 'web1', '--runners-dir', t.runners, '--no-cache', '--explain', 'file:/etc/site/shop.example.org', t.states]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal(
      [
        'file:/etc/site/shop.example.org (modules/site/site.hcl:1)',
        '  module instance shop (module site), declared at a.hcl:10',
        '  contents = "shop.example.org 8080 off"',
        '    written at modules/site/site.hcl:2',
        '    parameter name = "shop.example.org", set by the instance at a.hcl:12',
        '    parameter port = 8080, from data "site/port" at level common (data/common.hcl:4)',
        '    parameter tls = "off", the default its declaration gives at modules/site/variables.hcl:7',
        '',
      ].join('\n'),
    );
    const json = await govern(['plan', '--json', '--facts', facts, '--host', 'web1', '--runners-dir', t.runners, '--no-cache', '--explain', 'file:/etc/site/shop.example.org/contents', t.states]);
    const doc = JSON.parse(json.stdout);
    expect(doc.module).to.deep.equal({ instance: 'shop', module: 'site', at: 'a.hcl:10' });
    expect(doc.keys[0].params[1]).to.deep.equal({ name: 'port', value: 8080, from: 'data', at: 'data/common.hcl:4', data: { key: 'site/port', levels: ['common'] } });
    const templated = await govern(['plan', '--facts', facts, '--host', 'web1', '--runners-dir', t.runners, '--no-cache', '--explain', 'file:/etc/site/shop.example.org.conf', t.states]);
    expect(templated.stdout).to.equal(
      [
        'file:/etc/site/shop.example.org.conf (modules/site/site.hcl:4)',
        '  module instance shop (module site), declared at a.hcl:10',
        '  contents = "listen 8080 debian\\n# hello to web\\n"',
        '    rendered from template vhost.conf (modules/site/templates.d/vhost.conf), named at modules/site/site.hcl:5',
        '        1 | listen {{port}} {{family}}',
        '        2 | # {{data "motd"}} to {{fact "role"}}',
        '    var family = "debian", given by vars at modules/site/site.hcl:6',
        '    var port = 8080, given by vars at modules/site/site.hcl:6',
        '    parameter port = 8080, from data "site/port" at level common (data/common.hcl:4)',
        '    data "motd" = "hello", from common (data/common.hcl:1)',
        `    fact os/family = "debian", from ${path.join(facts, 'web1.json')}`,
        `    fact role = "web", from ${path.join(facts, 'web1.json')}`,
        '',
      ].join('\n'),
    );
    const listed = await govern(['plan', '--facts', facts, '--host', 'web1', '--runners-dir', t.runners, '--no-cache', '--explain', 'pkg:tools', t.states]);
    expect(listed.stdout).to.equal(
      'pkg:tools (modules/tools/tools.hcl:1)\n  module instance tools (module tools), listed by the data key "modules" at data/common.hcl:3\n' +
        '  version = "basic"\n    written at modules/tools/tools.hcl:2\n    parameter level = "basic", the default its declaration gives at modules/tools/variables.hcl:1\n',
    );
  });
});
