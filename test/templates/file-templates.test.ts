// A file's content from a template, end to end: the real CLI and the real file and exec runners, as
// root, in both runner modes (templates, vars, lists, partials, facts, large templates, errors).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, shRunner } from '../support/cli.js';
import { json } from '../support/state-tree.js';
import { tempDir, writeFile } from '../support/tmp.js';

const MODES = ['persistent', 'oneshot'] as const;

interface Site {
  dir: string;
  out: string;
  run(extra?: string[]): ReturnType<typeof govern>;
}

/** A state tree with its own templates.d and facts.d, applied with the shipped runners. */
function site(files: Record<string, string>, mode: string): Site {
  const dir = tempDir('govern-tmpl-');
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  writeFile(path.join(dir, 'tree/facts.d/site/name'), 'shop');
  writeFile(path.join(dir, 'tree/facts.d/secret/token'), 'tok-4f1d9c-secret');
  for (const [name, content] of Object.entries(files)) writeFile(path.join(dir, 'tree', name), content.replaceAll('OUT', out));
  const cache = path.join(dir, 'cache');
  return { dir, out, run: (extra = []) => govern(['run', path.join(dir, 'tree'), '--runner-mode', mode, '--cache-dir', cache, ...extra]) };
}

const VHOST = `server {
  server_name {{server_name}};
  listen {{port}};
{{> nginx/common-headers}}
{{#each upstreams}}
  server {{this}};
{{/each}}
  # site {{fact "site/name"}}
}
`;

const SHOP = (port: number) => `file "OUT/shop.conf" {
  ensure   = "present"
  template = "nginx/vhost.conf"
  vars     = { server_name = "shop.example.org", port = ${port}, upstreams = ["10.0.0.5:9000", "10.0.0.6:9000"] }
  owner    = "root"
  group    = "root"
  mode     = "0644"
  notify   = ["exec:reload"]
}

exec "reload" {
  command      = "/usr/bin/touch OUT/reloaded"
  refresh_only = true
}

file "OUT/current.conf" {
  ensure = "link"
  target = "shop.conf"
}

file "OUT/token" {
  ensure   = "present"
  contents = "{{fact "secret/token"}}"
  owner    = "root"
  group    = "root"
  mode     = "0600"
}
`;

describe('file templates (template, vars)', () => {
  for (const mode of MODES) {
    describe(`in ${mode} mode`, () => {
      it('renders vars, a list, a partial and a fact, with a link and a secret; a second run changes nothing; a changed variable diffs in noop and notifies on apply', async () => {
        const s = site(
          {
            'templates.d/nginx/vhost.conf': VHOST,
            'templates.d/nginx/common-headers.hbs': '  add_header X-Served-By {{server_name}};\n',
            'site.hcl': SHOP(8080),
          },
          mode,
        );
        const first = await s.run();
        expect(first.stderr).to.equal('');
        expect(first.code).to.equal(0);
        expect(fs.readFileSync(path.join(s.out, 'shop.conf'), 'utf8')).to.equal(
          'server {\n  server_name shop.example.org;\n  listen 8080;\n  add_header X-Served-By shop.example.org;\n  server 10.0.0.5:9000;\n  server 10.0.0.6:9000;\n  # site shop\n}\n',
        );
        expect(fs.readFileSync(path.join(s.out, 'current.conf'), 'utf8')).to.include('listen 8080;');
        expect(fs.readFileSync(path.join(s.out, 'token'), 'utf8')).to.equal('tok-4f1d9c-secret');
        expect(first.stdout).to.not.include('tok-4f1d9c-secret');
        fs.rmSync(path.join(s.out, 'reloaded'));

        const second = await s.run(['--json', '-vv']);
        expect(json(second.stdout).summary).to.include({ changed: 0, unchanged: 4, notifications_sent: 0 });
        expect(second.stdout + second.stderr).to.not.include('tok-4f1d9c-secret');

        writeFile(path.join(s.dir, 'tree/site.hcl'), SHOP(8081).replaceAll('OUT', s.out));
        const noop = await s.run(['--noop', '--json']);
        const [shop] = json(noop.stdout).resources;
        expect(shop.status).to.equal('changed');
        expect(shop.diff).to.include('-  listen 8080;\n+  listen 8081;');
        expect(fs.readFileSync(path.join(s.out, 'shop.conf'), 'utf8')).to.include('listen 8080;');

        const apply = await s.run();
        expect(apply.code).to.equal(0);
        expect(apply.stdout).to.match(/notified +exec:reload <- refresh from file:.*shop\.conf/);
        expect(fs.existsSync(path.join(s.out, 'reloaded'))).to.equal(true);
        expect(fs.readFileSync(path.join(s.out, 'shop.conf'), 'utf8')).to.include('listen 8081;');
      });

      it('applies a template that renders to 1 MiB, and then finds it up to date', async () => {
        const lines = Array.from({ length: 16 * 1024 }, (_, i) => `line ${String(i).padStart(5, '0')} {{word}} ${'x'.repeat(48)}`);
        const s = site(
          {
            'templates.d/big.conf': lines.join('\n') + '\n',
            'big.hcl': 'file "OUT/big.conf" {\n  ensure = "present"\n  template = "big.conf"\n  vars = { word = "abcd" }\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n',
          },
          mode,
        );
        const first = await s.run();
        expect(first.stderr).to.equal('');
        expect(first.code).to.equal(0);
        const written = fs.readFileSync(path.join(s.out, 'big.conf'), 'utf8');
        expect(written.length).to.be.greaterThan(1024 * 1024);
        expect(written).to.equal(lines.map((l) => l.replace('{{word}}', 'abcd')).join('\n') + '\n');
        const second = await s.run(['--json']);
        expect(json(second.stdout).summary).to.include({ changed: 0, unchanged: 1 });
      });
    });
  }

  it('finds a template by a path relative to the state file, and NAME.hbs by NAME', async () => {
    const s = site(
      {
        'web/files/app.conf.hbs': 'port={{port}}\n',
        'templates.d/motd.hbs': 'hello {{who}}\n',
        'web/app.hcl':
          'file "OUT/app.conf" {\n  ensure = "present"\n  template = "./files/app.conf.hbs"\n  vars = { port = 80 }\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n' +
          'file "OUT/motd" {\n  ensure = "present"\n  template = "motd"\n  vars = { who = "you" }\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n',
      },
      'persistent',
    );
    const r = await s.run();
    expect(r.stderr).to.equal('');
    expect(fs.readFileSync(path.join(s.out, 'app.conf'), 'utf8')).to.equal('port=80\n');
    expect(fs.readFileSync(path.join(s.out, 'motd'), 'utf8')).to.equal('hello you\n');
  });

  it('reports every missing template, partial and variable at once, with file and line, and applies nothing', async () => {
    const s = site(
      {
        'templates.d/nginx/vhost.conf': VHOST,
        'templates.d/uses-missing.conf': 'a\n{{> nginx/nothere}}\n',
        'site.hcl':
          'file "OUT/a.conf" {\n  ensure = "present"\n  template = "nginx/vhost.conf"\n  vars = { server_name = "x", upstreams = [], prot = 80 }\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n' +
          'file "OUT/b.conf" {\n  ensure = "present"\n  template = "nope"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n' +
          'file "OUT/c.conf" {\n  ensure = "present"\n  template = "uses-missing.conf"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n' +
          'file "OUT/d.conf" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n',
      },
      'persistent',
    );
    const r = await s.run();
    expect(r.code).to.equal(1);
    const vhost = path.join(s.dir, 'tree/templates.d/nginx/vhost.conf');
    // A typo in vars (prot) is named next to the variable the template misses (port).
    expect(r.stderr).to.include(`${vhost}:3: unknown variable or helper "port" (the resource's vars give "prot": is one of the two misspelt?) (template of file:${s.out}/a.conf)`);
    expect(r.stderr).to.include(`${vhost}:4: partial "nginx/common-headers": not found in`);
    expect(r.stderr).to.include(`site.hcl:11: file:${s.out}/b.conf: template "nope": not found in ${path.join(s.dir, 'tree/templates.d')}`);
    expect(r.stderr).to.include(`uses-missing.conf:2: partial "nginx/nothere": not found in`);
    expect(fs.readdirSync(s.out)).to.deep.equal([]);
  });

  it('refuses template with contents or source, and vars without template, before applying anything', async () => {
    const s = site(
      {
        'templates.d/t': 'x\n',
        'site.hcl':
          'file "OUT/a" {\n  ensure = "present"\n  template = "t"\n  contents = "y"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n' +
          'file "OUT/b" {\n  ensure = "present"\n  vars = { a = 1 }\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n',
      },
      'persistent',
    );
    const r = await s.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`site.hcl:4: file:${s.out}/a: give only one of template and contents`);
    expect(r.stderr).to.include(`site.hcl:11: file:${s.out}/b: vars are the variables of a template: give template too`);
    expect(fs.readdirSync(s.out)).to.deep.equal([]);
  });

  it('refuses, before applying, a value too long for a command line for a runner that does not speak the persistent protocol (a fake sh runner)', async () => {
    const s = site({ 'templates.d/big': 'y'.repeat(200 * 1024) + '\n', 'a.hcl': 'file "OUT/first" {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\nplain "x" {\n  template = "big"\n}\n' }, 'oneshot');
    const runners = path.join(s.dir, 'runners');
    shRunner(runners, 'plain', 'echo "message=got it"');
    const r = await s.run(['--runners-dir', runners]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/a\.hcl:8: plain:x: contents is 200 KiB, more than a command line can carry \(128 KiB for one argument\); runner "plain" .* does not speak the persistent protocol/);
    expect(fs.readdirSync(s.out)).to.deep.equal([]);
  });

  it('names the escape %%{ when HCL reads a literal %{ as a template directive', async () => {
    const s = site({ 'apache.hcl': 'file "OUT/log.conf" {\n  ensure = "present"\n  contents = "LogFormat \\"%{Referer}i\\""\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n' }, 'persistent');
    const r = await s.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('apache.hcl:3:');
    expect(r.stderr).to.include('a literal "%{" is written "%%{"');
    writeFile(path.join(s.dir, 'tree/apache.hcl'), fs.readFileSync(path.join(s.dir, 'tree/apache.hcl'), 'utf8').replace('%{', '%%{'));
    expect((await s.run()).code).to.equal(0);
    expect(fs.readFileSync(path.join(s.out, 'log.conf'), 'utf8')).to.equal('LogFormat "%{Referer}i"');
  });
});

describe('govern render with variables #once', () => {
  it('renders a template with --var and --vars-json, and its partials', async () => {
    const dir = tempDir('govern-tmpl-');
    writeFile(path.join(dir, 'templates.d/nginx/vhost.conf'), VHOST);
    writeFile(path.join(dir, 'templates.d/nginx/common-headers.hbs'), '  # headers for {{server_name}}\n');
    writeFile(path.join(dir, 'facts.d/site/name'), 'shop');
    const r = await govern(['render', path.join(dir, 'templates.d/nginx/vhost.conf'), '--var', 'server_name=a,b.org', '--vars-json', '{"port": 80, "upstreams": ["u:1"]}', '--facts-dir', path.join(dir, 'facts.d')]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('server {\n  server_name a,b.org;\n  listen 80;\n  # headers for a,b.org\n  server u:1;\n  # site shop\n}\n');
    const missing = await govern(['render', '--templates-dir', path.join(dir, 'templates.d'), 'nginx/vhost.conf', '--vars-json', '[1]', '--var', 'nokey']);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include('--vars-json must be a JSON object');
    expect(missing.stderr).to.include('--var "nokey" is not KEY=VALUE');
  });
});
