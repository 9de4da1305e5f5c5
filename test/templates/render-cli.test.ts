import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** The README's Handlebars version of the seed's emacs example (kept in sync by this test). */
function readmeEmacsExample(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const match = /<!-- emacs-example -->\n```handlebars\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no emacs example block');
  return match[1];
}

function factsDir(facts: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, value] of Object.entries(facts)) writeFile(path.join(dir, name), value);
  return dir;
}

describe('govern render', () => {
  it('renders the README emacs example for Arch Linux and OpenBSD #once', async () => {
    const dir = tempDir();
    const template = writeFile(path.join(dir, 'emacs.hcl'), readmeEmacsExample());
    const arch = await govern(['render', template, '--facts-dir', factsDir({ 'os/name': 'Linux', 'os/distribution': 'Arch Linux' })]);
    expect(arch.stderr).to.equal('');
    expect(arch.stdout.trim()).to.equal('pkg "emacs" {\n  state = "installed"\n}');
    const openbsd = await govern(['render', template, '--facts-dir', factsDir({ 'os/name': 'OpenBSD', 'os/distribution': 'OpenBSD' })]);
    expect(openbsd.stdout.trim()).to.equal('pkg "emacs-27.1-no_x11" {\n  state = "installed"\n}');
    const debian = await govern(['render', template, '--facts-dir', factsDir({ 'os/name': 'Linux', 'os/distribution': 'Debian GNU/Linux' })]);
    expect(debian.stdout.trim()).to.equal('');
  });

  it('finds a template by name in the templates directories, first one first #once', async () => {
    const mine = tempDir();
    const shipped = tempDir();
    writeFile(path.join(shipped, 'motd'), 'shipped {{fact "hostname"}}\n');
    writeFile(path.join(shipped, 'other'), 'other\n');
    writeFile(path.join(mine, 'motd'), 'Welcome to {{fact "hostname"}} ({{upper (fact "os/name")}}), ssh {{yesno true}}\n');
    const facts = factsDir({ hostname: 'web1', 'os/name': 'Linux' });
    const args = ['--templates-dir', mine, '--templates-dir', shipped, '--facts-dir', facts];
    expect((await govern(['render', 'motd', ...args])).stdout).to.equal('Welcome to web1 (LINUX), ssh yes\n');
    expect((await govern(['render', 'other', ...args])).stdout).to.equal('other\n');
    const missing = await govern(['render', 'nope', ...args]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain('template nope: not found in');
  });

  it('renders the shipped example templates #once', async () => {
    const r = await govern(['render', 'motd', '--templates-dir', path.join(ROOT, 'templates.d'), '--facts-dir', path.join(ROOT, 'facts.d')]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.contain(fs.readFileSync('/etc/hostname', 'utf8').trim().split('.')[0]);
  });

  it('does not HTML-escape values #once', async () => {
    const dir = tempDir();
    const t = writeFile(path.join(dir, 't'), '{{fact "x"}}\n');
    const r = await govern(['render', t, '--facts-dir', factsDir({ x: `<a href="x">&'` })]);
    expect(r.stdout).to.equal(`<a href="x">&'\n`);
  });

  describe('errors name the template and line #once', () => {
    const cases: [string, string, RegExp][] = [
      ['a missing fact', 'line one\n{{fact "no/such"}}\n', /t\.tmpl:2: fact "no\/such": no such fact/],
      ['an unknown variable', 'x\ny\n{{hostname}}\n', /t\.tmpl:3: unknown variable or helper "hostname"/],
      ['an unknown variable inside if', '{{#if enabled}}x{{/if}}\n', /t\.tmpl:1: unknown variable or helper "enabled"/],
      ['an unknown helper', '\n{{shout "x"}}\n', /t\.tmpl:2: unknown helper "shout"/],
      ['a syntax error', 'a\nb {{foo (}}\n', /t\.tmpl:2: template syntax error: Expecting/],
      ['an unclosed block, at the line it opened on', 'a\nb {{#if (eq 1 1)}}\n', /t\.tmpl:2: template syntax error: \{\{#if\}\} opened on line 2 is never closed/],
      ['a helper error', '\n\n{{yesno "maybe"}}\n', /t\.tmpl:3: yesno: "maybe" is not a boolean/],
      ['a lookup of a missing key', 'x\n{{lookup this "nope"}}\n', /\/t\.tmpl:2: lookup: "nope" is not defined\n$/],
      ['a lookup past the end of a list', '{{lookup (split "a,b" ",") 2}}\n', /t\.tmpl:1: lookup: 2 is not defined \(the list has 2 elements\)/],
      ['a lookup of a prototype member', '{{lookup this "constructor"}}\n', /t\.tmpl:1: lookup: "constructor" is not defined/],
      ['blocks nested 3,000 deep', `a\n${'{{#if true}}'.repeat(3000)}x${'{{/if}}'.repeat(3000)}\n`, /\/t\.tmpl:2: blocks nested more than 100 levels deep; govern refuses deeper nesting\n$/],
      ['a name looked up in a string, the element of each', '{{#each (split "a,b" ",")}}\n{{name}}\n{{/each}}\n', /\/t\.tmpl:2: "name" is not defined: it is looked up in the value "a", which has no keys; inside \{\{#each\}\} or \{\{#with\}\}, a variable of the template is "\.\.\/name" or "@root\.name"\n$/],
      ['a path three parts past a missing key', '{{#with (split "a" ",")}}\n{{this.y.z.w}}\n{{/with}}\n', /\/t\.tmpl:2: "this\.y\.z" is not defined: "this\.y" has no value here, so it has no "z"\n$/],
      ['a path to a prototype member', '\n{{this.constructor}}\n', /t\.tmpl:2: "this\.constructor": "constructor" is not a variable/],
    ];
    for (const [what, source, expected] of cases) {
      it(what, async () => {
        const dir = tempDir();
        const t = writeFile(path.join(dir, 't.tmpl'), source);
        const r = await govern(['render', t, '--facts-dir', factsDir({ x: '1' })]);
        expect(r.code).to.equal(1);
        expect(r.stdout).to.equal('');
        expect(r.stderr).to.match(expected);
      });
    }
  });

  it('finds what lookup is given, from a list or a block parameter #once', async () => {
    const dir = tempDir();
    const t = writeFile(path.join(dir, 't'), '{{lookup (split "a,b" ",") 1}} {{#each (split "x,y" ",") as |v i|}}{{lookup (split "p,q" ",") i}}{{v}}{{/each}}\n');
    const r = await govern(['render', t, '--facts-dir', factsDir({})]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('b pxqy\n');
  });

  it('writes {{log}} to stderr, with the template and line, once, never into the output', async () => {
    const dir = tempDir();
    const t = writeFile(path.join(dir, 't'), 'a\n{{log "os is" (fact "os/name") level="warn"}}b {{fact "x"}}\n');
    const r = await govern(['render', t, '--facts-dir', factsDir({ 'os/name': 'Linux', x: '1' })]);
    expect(r.stdout).to.equal('a\nb 1\n');
    expect(r.stderr).to.equal(`govern: ${t}:2: os is Linux\n`);
    const states = tempDir();
    writeFile(path.join(states, 'a.hcl'), '{{log "planning"}}\n');
    const json = await govern(['run', '--json', states, '--facts-dir', factsDir({})]);
    expect(json.stderr).to.match(/^govern: .*a\.hcl:1: planning\n/);
    expect(() => JSON.parse(json.stdout)).not.to.throw();
  });

  it('refuses a template that is not UTF-8, with the line, and one that is not a regular file #once', async () => {
    const dir = tempDir();
    const t = path.join(dir, 't');
    fs.writeFileSync(t, Buffer.from([0x61, 0x0a, 0x62, 0xff, 0x0a]));
    const r = await govern(['render', t, '--facts-dir', factsDir({})]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.equal(`govern: ${t}:2: not valid UTF-8 (byte 0xff): govern reads templates and state files as UTF-8 and never alters them\n`);
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const blocked = await govern(['render', fifo, '--facts-dir', factsDir({})], { timeoutMs: 30_000 });
    expect(blocked.stderr).to.equal(`govern: ${fifo}: not a regular file (a FIFO): govern reads only regular files\n`);
  });

  it('lets a fact name come from another fact #once', async () => {
    const dir = tempDir();
    const t = writeFile(path.join(dir, 't'), '{{fact (concat "pkg/" (fact "role"))}}\n');
    const r = await govern(['render', t, '--facts-dir', factsDir({ role: 'web', 'pkg/web': 'nginx' })]);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.equal('nginx\n');
  });

  it('evaluates only the facts a template uses #once', async () => {
    const dir = tempDir();
    const facts = tempDir();
    const marker = path.join(dir, 'ran');
    writeFile(path.join(facts, 'used'), 'yes');
    writeFile(path.join(facts, 'unused'), `#!/bin/sh\ntouch ${marker}\necho x\n`, 0o755);
    const t = writeFile(path.join(dir, 't'), '{{fact "used"}}\n');
    const r = await govern(['render', t, '--facts-dir', facts]);
    expect(r.stdout).to.equal('yes\n');
    expect(fs.existsSync(marker)).to.equal(false);
  });
});
