// Encrypted data end to end: a host decrypts, in memory, the values it may read and is refused the
// others only where a template uses them; the plain text reaches the managed file and nothing else
// govern writes or prints.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { encrypt } from '../../src/secrets/age.js';
import { formatEncrypted } from '../../src/secrets/format.js';
import { govern } from '../support/cli.js';
import { repository } from '../support/preview.js';
import { json } from '../support/state-tree.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { sshKey, type TestKey } from './keys.js';

const PASSWORD = 'Db-Pa55-from-age-1';
const OTHER = 'Web2-only-s3cret';

interface Fleet {
  dir: string;
  tree: string;
  out: string;
  web1: TestKey;
  web2: TestKey;
}

function fleet(site: (out: string) => string): Fleet {
  const dir = tempDir('govern-secrets-');
  const web1 = sshKey(dir, 'web1');
  const web2 = sshKey(dir, 'web2');
  const tree = path.join(dir, 'tree');
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const enc = (plain: string, name: string, key: TestKey) => formatEncrypted({ to: [name], ciphertext: encrypt(plain, [key.recipient]) });
  writeFile(path.join(tree, 'hierarchy.hcl'), 'levels = ["common"]\n');
  writeFile(path.join(tree, 'data/common.hcl'), `motd = "hello"\ndb = {\n  password = "${enc(PASSWORD, 'web1', web1)}"\n}\nother = "${enc(OTHER, 'web2', web2)}"\n`);
  writeFile(path.join(tree, 'facts.d/hostname'), 'web1');
  writeFile(path.join(tree, 'site.hcl'), site(out));
  return { dir, tree, out, web1, web2 };
}

function fileResource(file: string, contents: string): string {
  return `file "${file}" {\n  ensure   = "present"\n  contents = "${contents}"\n  owner    = "root"\n  group    = "root"\n  mode     = "0600"\n}\n`;
}

/** Every file under dir whose content holds the text. */
function filesHolding(dir: string, text: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.path, entry.name))
    .filter((file) => fs.readFileSync(file, 'latin1').includes(text));
}

describe('secrets while planning', () => {
  for (const mode of ['persistent', 'oneshot']) {
    it(`a host decrypts its own value into the managed file, and shows or stores it nowhere else (${mode} mode)`, async () => {
      const f = fleet((out) => fileResource(`${out}/db.conf`, 'password = {{data "db/password"}} {{data "motd"}}\\n') + fileResource(`${out}/plain`, '{{data "motd"}}\\n'));
      const cache = path.join(f.dir, 'cache');
      const varDir = path.join(f.dir, 'var');
      const metrics = path.join(f.dir, 'govern.prom');
      const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
        govern(['run', f.tree, '--runner-mode', mode, '--cache-dir', cache, '--var-dir', varDir, '--metrics-file', metrics, ...args], { env: { ...process.env, ...env } });
      const noop = await run(['-vv', '--noop', '--identity', f.web1.identity]);
      expect(noop.code, noop.stderr).to.equal(0);
      expect(noop.stdout).to.match(/running .*\/db.conf ensure=present contents\\=\\<sensitive\\>/);
      expect(noop.stdout).to.include('Would have created the file');
      const first = await run(['-vv'], { GOVERN_IDENTITY: f.web1.identity });
      expect(first.code, first.stderr).to.equal(0);
      const again = await run(['--json', '--identity', f.web1.identity]);
      expect(again.code, again.stderr).to.equal(0);
      expect(json(again.stdout).summary).to.include({ changed: 0, failed: 0 });

      expect(fs.readFileSync(path.join(f.out, 'db.conf'), 'utf8')).to.equal(`password = ${PASSWORD} hello\n`);
      for (const r of [noop, first, again]) for (const text of [r.stdout, r.stderr]) expect(text).not.to.include(PASSWORD);
      for (const dir of [cache, varDir]) expect(filesHolding(dir, PASSWORD), dir).to.deep.equal([]);
      expect(fs.readFileSync(metrics, 'utf8')).not.to.include(PASSWORD);
      // The value this host may not read is never tried: no template uses it.
      expect(filesHolding(f.out, OTHER)).to.deep.equal([]);
    });
  }

  it('a value the host cannot decrypt is an error at the template line and the data line, and nothing is applied', async () => {
    const f = fleet((out) => fileResource(`${out}/first`, 'x\\n') + fileResource(`${out}/other.conf`, 'token = {{data "other"}}\\n'));
    const r = await govern(['run', '--no-cache', f.tree, '--identity', f.web1.identity]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${f.tree}/site.hcl:10: data: "other" (${f.tree}/data/common.hcl:5): cannot decrypt with the identity ${f.web1.identity} (the value is for web2): no identity matched any of the recipients`);
    expect(fs.readdirSync(f.out)).to.deep.equal([]);
  });

  it('a module parameter from an encrypted value taints the module\'s resources that use it, even changed by a helper, and no other', async () => {
    const f = fleet(() => 'module "db" {\n  source = "app"\n}\n');
    writeFile(path.join(f.tree, 'data/common.hcl'), `app = {\n  pw = "${formatEncrypted({ to: ['web1'], ciphertext: encrypt(PASSWORD, [f.web1.recipient]) })}"\n}\n`);
    writeFile(path.join(f.tree, 'modules/app/variables.hcl'), 'variable "pw" {\n  type = "string"\n}\n');
    writeFile(path.join(f.tree, 'modules/app/main.hcl'), fileResource(`${f.out}/pw`, '{{upper pw}}\\n') + fileResource(`${f.out}/plain`, 'no secret here\\n'));
    const run = (args: string[]) => govern(['run', '--no-cache', f.tree, '--identity', f.web1.identity, ...args]);
    const first = await run(['-vv']);
    expect(first.code, first.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(f.out, 'pw'), 'utf8')).to.equal(`${PASSWORD.toUpperCase()}\n`);
    expect(first.stdout).to.match(/running .*\/pw ensure=present contents\\=\\<sensitive\\>/);
    expect(first.stdout).to.match(/running .*\/plain ensure=present 'contents=no secret here/);
    const again = await run(['--json']);
    expect(again.code, again.stderr).to.equal(0);
    for (const r of [first, again]) for (const text of [r.stdout, r.stderr]) for (const secret of [PASSWORD, PASSWORD.toUpperCase()]) expect(text).not.to.include(secret);
  });

  it('a module parameter read as a block\'s context ({{#with}}, {{#each}}) taints what the block writes, changed by a helper #once', async () => {
    const f = fleet(() => 'module "db" {\n  source = "app"\n}\n');
    const enc = (plain: string) => formatEncrypted({ to: ['web1'], ciphertext: encrypt(plain, [f.web1.recipient]) });
    writeFile(path.join(f.tree, 'data/common.hcl'), `app = {\n  db = {\n    password = "${enc(PASSWORD)}"\n  }\n  keys = ["${enc(OTHER)}"]\n}\n`);
    writeFile(path.join(f.tree, 'modules/app/variables.hcl'), 'variable "db" {\n  type = "map"\n}\nvariable "keys" {\n  type = "list"\n}\n');
    const main = `{{#with db}}\n${fileResource(`${f.out}/pw`, '{{upper password}}\\n')}{{/with}}\n{{#each keys}}\n${fileResource(`${f.out}/key`, '{{upper this}}\\n')}{{/each}}\n`;
    writeFile(path.join(f.tree, 'modules/app/main.hcl'), main + fileResource(`${f.out}/plain`, 'no secret here\\n'));
    const plan = await govern(['plan', '--no-cache', '--json', '--identity', f.web1.identity, f.tree]);
    expect(plan.code, plan.stderr).to.equal(0);
    const [host] = JSON.parse(plan.stdout).hosts;
    const byRef = new Map((host.resources as { ref: string; sensitive: boolean }[]).map((r) => [r.ref, r.sensitive]));
    expect(Object.fromEntries(byRef)).to.deep.equal({ [`file:${f.out}/pw`]: true, [`file:${f.out}/key`]: true, [`file:${f.out}/plain`]: false });
    for (const secret of [PASSWORD, OTHER]) for (const shown of [secret, secret.toUpperCase()]) expect(plan.stdout + plan.stderr).not.to.include(shown);
  });

  it('a module parameter the instance sets from an encrypted value changed by a helper is sensitive: it taints, and --explain hides it #once', async () => {
    const f = fleet(() => 'module "db" {\n  source = "app"\n  pw = "{{upper (data "db/password")}}"\n}\n');
    writeFile(path.join(f.tree, 'modules/app/variables.hcl'), 'variable "pw" {\n  type = "string"\n}\n');
    writeFile(path.join(f.tree, 'modules/app/main.hcl'), fileResource(`${f.out}/pw`, 'x{{pw}}\\n'));
    const plan = await govern(['plan', '--no-cache', '--json', '--identity', f.web1.identity, f.tree]);
    expect(plan.code, plan.stderr).to.equal(0);
    expect(JSON.parse(plan.stdout).hosts[0].resources[0]).to.deep.include({ ref: `file:${f.out}/pw`, sensitive: true });
    const explain = await govern(['plan', '--no-cache', '--identity', f.web1.identity, '--explain', `file:${f.out}/pw/contents`, f.tree]);
    expect(explain.code, explain.stderr).to.equal(0);
    expect(explain.stdout).to.contain('parameter pw = "<sensitive>", set by the instance at site.hcl:3');
    for (const r of [plan, explain]) expect(r.stdout + r.stderr).not.to.include(PASSWORD.toUpperCase());
  });

  it('a module\'s template error never shows an encrypted parameter\'s value', async () => {
    const f = fleet(() => 'module "db" {\n  source = "app"\n}\n');
    writeFile(path.join(f.tree, 'data/common.hcl'), `app = {\n  pw = "${formatEncrypted({ to: ['web1'], ciphertext: encrypt(PASSWORD, [f.web1.recipient]) })}"\n}\n`);
    writeFile(path.join(f.tree, 'modules/app/variables.hcl'), 'variable "pw" {\n  type = "string"\n}\n');
    writeFile(path.join(f.tree, 'modules/app/main.hcl'), `{{log "pw is" pw}}\n${fileResource(`${f.out}/pw`, '{{yesno pw}}')}`);
    const r = await govern(['run', '--no-cache', f.tree, '--identity', f.web1.identity]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('modules/app/main.hcl:4');
    expect(r.stderr + r.stdout).not.to.include(PASSWORD);
    expect(fs.readdirSync(f.out)).to.deep.equal([]);
  });

  it('a module\'s template error on a line that reads an encrypted parameter shows no form of it (changed by a helper, or JSON-quoted) #once', async () => {
    const f = fleet(() => 'module "db" {\n  source = "app"\n}\n');
    const quoted = 'Db-"quoted"\\pa55';
    const enc = (plain: string) => formatEncrypted({ to: ['web1'], ciphertext: encrypt(plain, [f.web1.recipient]) });
    writeFile(path.join(f.tree, 'data/common.hcl'), `app = {\n  pw = "${enc(PASSWORD)}"\n  q = "${enc(quoted)}"\n}\n`);
    writeFile(path.join(f.tree, 'modules/app/variables.hcl'), 'variable "pw" {\n  type = "string"\n}\nvariable "q" {\n  type = "string"\n}\n');
    writeFile(path.join(f.tree, 'modules/app/main.hcl'), fileResource(`${f.out}/pw`, '{{yesno (upper pw)}}'));
    writeFile(path.join(f.tree, 'modules/app/other.hcl'), fileResource(`${f.out}/q`, '{{yesno q}}'));
    const r = await govern(['plan', '--no-cache', '--identity', f.web1.identity, f.tree]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('modules/app/main.hcl:3').and.to.contain('modules/app/other.hcl:3');
    for (const shown of [PASSWORD, PASSWORD.toUpperCase(), PASSWORD.toLowerCase(), quoted, JSON.stringify(quoted).slice(1, -1), 'quoted']) expect(r.stderr + r.stdout).not.to.include(shown);
  });

  it('plan and diff: a value this machine cannot decrypt is <sensitive>, taints its resource and fails nothing #once', async () => {
    const conf = (extra: string) => fileResource('/etc/govern-test-other.conf', `token = {{data "other"}} pw = {{data "db/password"}} ${extra}\\n`);
    const f = fleet(() => conf('v1'));
    const plan = await govern(['plan', '--no-cache', '--json', '--identity', f.web1.identity, f.tree]);
    expect(plan.code, plan.stderr).to.equal(0);
    const [host] = JSON.parse(plan.stdout).hosts;
    expect(host.resources[0]).to.deep.include({ ref: 'file:/etc/govern-test-other.conf', sensitive: true });
    expect(host.resources[0].attrs.contents).to.equal('<sensitive>');
    const text = await govern(['plan', '--no-cache', '--identity', f.web1.identity, f.tree]);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.contain('1. file:/etc/govern-test-other.conf (site.hcl:1) [sensitive]\n       contents = "<sensitive>"\n');

    const repo = repository(f.tree);
    const before = repo.commit({}, 'first');
    repo.commit({ 'site.hcl': conf('v2') }, 'second');
    const diff = await govern(['diff', '--no-cache', '--identity', f.web1.identity, before, 'HEAD', '.'], { cwd: f.tree });
    expect(diff.code, diff.stderr).to.equal(2);
    expect(diff.stdout).to.contain('file:/etc/govern-test-other.conf changed on 1 host: ');
    expect(diff.stdout).to.contain('    contents: "<sensitive>" -> "<sensitive>"\n');
    for (const r of [plan, text, diff]) expect(r.stdout + r.stderr).not.to.include(PASSWORD);
  });

  it('plan: a module parameter this machine cannot decrypt is <sensitive>, not checked against its pattern or values', async () => {
    const f = fleet(() => 'module "db" {\n  source = "app"\n}\n');
    const enc = (plain: string) => formatEncrypted({ to: ['web2'], ciphertext: encrypt(plain, [f.web2.recipient]) });
    writeFile(path.join(f.tree, 'data/common.hcl'), `app = {\n  pw = "${enc(OTHER)}"\n  level = "${enc('high')}"\n}\n`);
    writeFile(path.join(f.tree, 'modules/app/variables.hcl'), 'variable "pw" {\n  type = "string"\n  pattern = "Web2-.*"\n}\nvariable "level" {\n  type = "string"\n  values = ["low", "high"]\n}\n');
    writeFile(path.join(f.tree, 'modules/app/main.hcl'), fileResource('/etc/govern-test-module.conf', 'pw = {{pw}} level = {{level}}\\n'));
    const plan = await govern(['plan', '--no-cache', '--json', '--identity', f.web1.identity, f.tree]);
    expect(plan.code, plan.stderr).to.equal(0);
    const [host] = JSON.parse(plan.stdout).hosts;
    expect(host.resources[0]).to.deep.include({ ref: 'file:/etc/govern-test-module.conf', sensitive: true });
    // A run, which must know the value, still refuses it.
    const run = await govern(['run', '--no-cache', '--noop', '--identity', f.web1.identity, f.tree]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain('cannot decrypt with the identity');
  });

  it('without --identity, the host key /etc/ssh/ssh_host_ed25519_key is the identity', async () => {
    const f = fleet((out) => fileResource(`${out}/x`, '{{data "db/password"}}'));
    const r = await govern(['run', '--no-cache', '--noop', f.tree]);
    expect(r.stderr).to.contain('cannot decrypt with the identity /etc/ssh/ssh_host_ed25519_key (the value is for web1)');
  });
});
