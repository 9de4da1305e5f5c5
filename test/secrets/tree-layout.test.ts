// The layout docs/secrets.md gives, run as a new user runs it: recipients.hcl at the tree's root is
// no state file, every `govern secret` command finds it there, rekey changes only the values whose
// recipients changed and says what it did, and a value a host cannot read is a FILE:LINE error
// wherever it is read, with the real age program and real keys.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN, govern } from '../support/cli.js';
import { repository, snapshots } from '../support/preview.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { ageKey, sshKey, type TestKey } from './keys.js';

interface Tree {
  dir: string;
  tree: string;
  out: string;
  k: Record<'web1' | 'db1' | 'alice', TestKey>;
}

function recipients(t: Pick<Tree, 'k'>, db: string[], extra = ''): string {
  return `hosts = {\n  web1 = "${t.k.web1.recipient}"\n  db1  = "${t.k.db1.recipient}"\n}\npeople = {\n  alice = "${t.k.alice.recipient}"\n${extra}}\ngroups = {\n  web    = ["web1"]\n  db     = ${JSON.stringify(db)}\n  admins = ["alice"]\n}\n`;
}

function setup(): Tree {
  const dir = tempDir('govern-secret-tree-');
  const k = { web1: sshKey(dir, 'web1'), db1: sshKey(dir, 'db1'), alice: ageKey(dir, 'alice') };
  const tree = path.join(dir, 'tree');
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  writeFile(path.join(tree, 'recipients.hcl'), recipients({ k }, ['db1', 'web1']));
  writeFile(path.join(tree, 'hierarchy.hcl'), 'levels = [\n  "roles/{{fact "role"}}",\n  "common",\n]\n');
  writeFile(path.join(tree, 'data/roles/db.hcl'), 'db = {\n  user     = "app"\n  password = "x"\n}\n');
  writeFile(path.join(tree, 'data/roles/web.yaml'), 'api:\n  token: x\n');
  writeFile(path.join(tree, 'data/common.hcl'), 'motd = "hello"\n');
  writeFile(path.join(tree, 'facts.d/role'), 'db');
  writeFile(path.join(tree, 'site.hcl'), `file "${out}/db.conf" {\n  ensure   = "present"\n  contents = "password={{data "db/password"}}\\n"\n  owner    = "root"\n  group    = "root"\n  mode     = "0600"\n}\n`);
  return { dir, tree, out, k };
}

function set(cwd: string, args: string[], value: string | Buffer): { code: number; stderr: string } {
  try {
    execFileSync(GOVERN, ['secret', 'set', ...args], { cwd, input: value, stdio: ['pipe', 'pipe', 'pipe'] });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { status: number; stderr: Buffer };
    return { code: err.status, stderr: err.stderr.toString() };
  }
}

describe('secrets in the layout of docs/secrets.md', () => {
  it('recipients.hcl at the root is not a state file; set, show and run find it there', async () => {
    const t = setup();
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'S3cret-db\n')).to.deep.equal({ code: 0, stderr: '' });
    const run = await govern(['run', '--no-cache', t.tree, '--identity', t.k.db1.identity]);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).not.to.contain('recipients.hcl');
    expect(fs.readFileSync(path.join(t.out, 'db.conf'), 'utf8')).to.equal('password=S3cret-db\n');
    const shown = await govern(['secret', 'show', 'data/roles/db.hcl', 'db/password', '--identity', t.k.alice.identity], { cwd: t.tree });
    expect(shown.stdout, shown.stderr).to.equal('S3cret-db');
    // A new host's file, in a directory of data/ that does not exist yet.
    expect(set(t.tree, ['data/hosts/web1.yaml', 'token', '--to', 'web1'], 'w1')).to.deep.equal({ code: 0, stderr: '' });
    expect(fs.readFileSync(path.join(t.tree, 'data/hosts/web1.yaml'), 'utf8')).to.match(/^token: "ENC\[age,to=web1,/);
    const outside = set(t.tree, ['common.hcl', 'x', '--to', 'web1'], 'v');
    expect(outside.code).to.equal(1);
    expect(outside.stderr).to.contain('common.hcl: not a data file of a tree');
  });

  it('the other places of a tree (modules.hcl, modules.lock, tests/) are not read as state files either #once', async () => {
    const t = setup();
    writeFile(path.join(t.tree, 'modules.hcl'), 'module "x" {\n  source = "git+https://example.org/x"\n}\n');
    writeFile(path.join(t.tree, 'tests/web.hcl'), 'check "x" {\n  command = "true"\n}\n');
    writeFile(path.join(t.tree, 'data/roles/db.hcl'), 'db = {\n  password = "plain"\n}\n');
    const plan = await govern(['plan', t.tree, '--no-cache']);
    expect(plan.code, plan.stderr).to.equal(0);
    expect(plan.stdout).to.contain('db.conf');
  });

  it('rekey takes the tree\'s root: data/ or a directory without recipients.hcl is an error, not "0 values" #once', async () => {
    const t = setup();
    const env = { ...process.env, GOVERN_IDENTITY: t.k.alice.identity };
    const inData = await govern(['secret', 'rekey', 'data'], { cwd: t.tree, env });
    expect(inData.code).to.equal(1);
    expect(inData.stderr).to.contain('data: no recipients.hcl here: give the tree\'s root');
    const elsewhere = await govern(['secret', 'rekey', t.out], { env });
    expect(elsewhere.code).to.equal(1);
    expect(elsewhere.stderr).to.contain(`${t.out}: no recipients.hcl here`);
    const none = await govern(['secret', 'rekey'], { cwd: t.tree, env });
    expect(none.stdout).to.equal('no encrypted values under data/: nothing to encrypt again\n');
    expect(none.code).to.equal(1);
  });

  it('rekey after a host left a group changes only the values given to that group, and names what changed #once', async () => {
    const t = setup();
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw1').code).to.equal(0);
    expect(set(t.tree, ['data/roles/web.yaml', 'api/token', '--to', 'web,admins'], 'tok1').code).to.equal(0);
    expect(set(t.tree, ['data/common.hcl', 'motd', '--to', 'admins'], 'm1').code).to.equal(0);
    const env = { ...process.env, GOVERN_IDENTITY: t.k.alice.identity };
    const same = await govern(['secret', 'rekey'], { cwd: t.tree, env });
    expect(same.stdout, same.stderr).to.equal('nothing to encrypt again: 3 values under data/, each encrypted to its names\' members of today\n');
    expect(same.code).to.equal(0);

    const files = ['data/roles/db.hcl', 'data/roles/web.yaml', 'data/common.hcl'];
    const before = files.map((f) => fs.readFileSync(path.join(t.tree, f), 'utf8'));
    writeFile(path.join(t.tree, 'recipients.hcl'), recipients(t, ['web1']));
    const r = await govern(['secret', 'rekey'], { cwd: t.tree, env });
    expect(r.stdout, r.stderr).to.equal(`data/roles/db.hcl:3: db/password: encrypted again (removes db1)\n1 value of 3 encrypted again\n`);
    expect(r.code).to.equal(0);
    const after = files.map((f) => fs.readFileSync(path.join(t.tree, f), 'utf8'));
    expect(after.map((text, i) => text === before[i])).to.deep.equal([false, true, true]);
    const refused = await govern(['secret', 'show', 'data/roles/db.hcl', 'db/password', '--identity', t.k.db1.identity], { cwd: t.tree });
    expect(refused.code).to.equal(1);
    expect((await govern(['secret', 'show', 'data/roles/db.hcl', 'db/password', '--identity', t.k.web1.identity], { cwd: t.tree })).stdout).to.equal('pw1');
  });

  it('rekey does not trust a name written into a value\'s to= label by hand #once', async () => {
    const t = setup();
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw1').code).to.equal(0);
    const extra = ageKey(t.dir, 'extra');
    writeFile(path.join(t.tree, 'recipients.hcl'), recipients(t, ['db1', 'web1'], `  extra = "${extra.recipient}"\n`));
    const file = path.join(t.tree, 'data/roles/db.hcl');
    const tampered = fs.readFileSync(file, 'utf8').replace('to=db+admins,', 'to=db+admins+extra,');
    fs.writeFileSync(file, tampered);
    const r = await govern(['secret', 'rekey', t.tree], { env: { ...process.env, GOVERN_IDENTITY: t.k.alice.identity } });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${file}:3: db/password: left as it was: to=db+admins+extra: the value is not encrypted today to any member of extra`);
    expect(fs.readFileSync(file, 'utf8')).to.equal(tampered);
    const show = await govern(['secret', 'show', file, 'db/password', '--identity', extra.identity]);
    expect(show.code).to.equal(1);
  });

  it('rekey of a value whose names have none of their members of the day left is refused: it looks like an edited label #once', async () => {
    const t = setup();
    writeFile(path.join(t.tree, 'recipients.hcl'), recipients(t, ['db1']));
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db'], 'pw1').code).to.equal(0);
    writeFile(path.join(t.tree, 'recipients.hcl'), recipients(t, ['web1']));
    const r = await govern(['secret', 'rekey', t.tree], { env: { ...process.env, GOVERN_IDENTITY: t.k.db1.identity } });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('db/password: left as it was: to=db: the value is not encrypted today to any member of db');
  });

  it('set refuses an empty value unless --allow-empty, and a value that is not UTF-8, writing nothing #once', async () => {
    const t = setup();
    const file = path.join(t.tree, 'data/roles/db.hcl');
    const before = fs.readFileSync(file, 'utf8');
    const empty = set(t.tree, [file, 'db/password', '--to', 'db'], '');
    expect(empty.code).to.equal(1);
    expect(empty.stderr).to.contain('the value of db/password is empty (did the command before the pipe fail?): nothing was written; give --allow-empty');
    const latin1 = set(t.tree, [file, 'db/password', '--to', 'db'], Buffer.from('caf\xe9\xff', 'latin1'));
    expect(latin1.code).to.equal(1);
    expect(latin1.stderr).to.contain('the value on stdin is not UTF-8 text');
    expect(fs.readFileSync(file, 'utf8')).to.equal(before);
    expect(set(t.tree, [file, 'db/password', '--to', 'db', '--allow-empty'], '').code).to.equal(0);
    expect((await govern(['secret', 'show', file, 'db/password', '--identity', t.k.db1.identity])).stdout).to.equal('');
  });

  it('a value that is not UTF-8, encrypted by the age program, is an error where it is read, not altered text #once', async () => {
    const t = setup();
    const ciphertext = execFileSync('age', ['-r', t.k.db1.recipient], { input: Buffer.from('caf\xe9\xff', 'latin1') });
    writeFile(path.join(t.tree, 'data/roles/db.hcl'), `db = {\n  password = "ENC[age,to=db,${ciphertext.toString('base64')}]"\n}\n`);
    const show = await govern(['secret', 'show', 'data/roles/db.hcl', 'db/password', '--identity', t.k.db1.identity], { cwd: t.tree });
    expect(show.code).to.equal(1);
    expect(show.stderr).to.contain('data/roles/db.hcl:2: "db/password": cannot decrypt with the identity');
    expect(show.stderr).to.contain('the decrypted value is not UTF-8 text');
  });

  for (const [name, damage] of [
    ['for other keys', (t: Tree) => ({ identity: sshKey(t.dir, 'stranger').identity })],
    ['damaged', (t: Tree) => ({ identity: t.k.db1.identity, edit: (v: string) => v.replace(/,([A-Za-z0-9+/]{8})/, ',AAAAAAAA') })],
    ['misspelt ENC[agee,', (t: Tree) => ({ identity: t.k.db1.identity, edit: (v: string) => v.replace('ENC[age,', 'ENC[agee,') })],
    ['with a missing identity file', (t: Tree) => ({ identity: path.join(t.dir, 'no-such-key') })],
  ] as const) {
    it(`a value ${name}, read as a module parameter or by secret show, is FILE:LINE: message, no internal error`, async () => {
      const t = setup();
      expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw1').code).to.equal(0);
      const { identity, edit } = { edit: (v: string) => v, ...damage(t) };
      const file = path.join(t.tree, 'data/roles/db.hcl');
      fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')).replace(/^db = \{/, 'app = {\n  pw = "unused"\n}\ndb = {'));
      // The module reads the value as its parameter app/pw.
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/app = \{\n {2}pw = "unused"\n\}\ndb = \{\n {2}user {5}= "app"\n {2}password = ("ENC[^"]*")\n\}\n/, 'app = {\n  pw = $1\n}\n'));
      writeFile(path.join(t.tree, 'modules/app/variables.hcl'), 'variable "pw" {\n  type = "string"\n}\n');
      writeFile(path.join(t.tree, 'modules/app/main.hcl'), `file "${t.out}/app" {\n  ensure   = "present"\n  contents = "{{pw}}"\n  owner    = "root"\n  group    = "root"\n  mode     = "0600"\n}\n`);
      writeFile(path.join(t.tree, 'site.hcl'), 'module "app" {\n  source = "app"\n}\n');
      const run = await govern(['run', '--no-cache', t.tree, '--identity', identity]);
      expect(run.code).to.equal(1);
      expect(run.stderr).not.to.match(/internal error|    at /);
      expect(run.stderr).to.contain(`${file}:2: data "app/pw": `);
      const show = await govern(['secret', 'show', file, 'app/pw', '--identity', identity]);
      expect(show.code).to.equal(1);
      expect(show.stderr).not.to.match(/internal error|    at /);
      expect(show.stderr).to.contain(`${file}:2: "app/pw": `);
      expect(fs.readdirSync(t.out)).to.deep.equal([]);
    });
  }

  it('diff says that a value was rotated, and which host reads a value it is no longer a recipient of #once', async () => {
    const t = setup();
    fs.rmSync(path.join(t.tree, 'facts.d'), { recursive: true });
    const facts = snapshots({ db1: { role: 'db', hostname: 'db1' }, web1: { role: 'web', hostname: 'web1' } });
    writeFile(path.join(t.tree, 'site.hcl'), fs.readFileSync(path.join(t.tree, 'site.hcl'), 'utf8').replace('{{data "db/password"}}', '{{data "db/password" default=""}}'));
    const repo = repository(t.tree);
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw1').code).to.equal(0);
    const first = repo.commit({}, 'first');
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw2').code).to.equal(0);
    const rotated = repo.commit({}, 'rotate');
    // As in CI: no identity that reads the values, so both sides of the file are <sensitive>.
    const diff = (from: string) => govern(['diff', '--no-cache', '--facts', facts, '--identity', path.join(t.dir, 'none'), from, 'HEAD', '.'], { cwd: t.tree });
    const rotation = await diff(first);
    expect(rotation.stdout, rotation.stderr).to.equal('encrypted value changed (data/roles/db.hcl:3, db/password) on 1 host: db1\n');
    expect(rotation.code).to.equal(2);

    // db1 leaves the group (and the value is encrypted again), while its role still reads the value.
    writeFile(path.join(t.tree, 'recipients.hcl'), recipients(t, ['web1']));
    const rekey = await govern(['secret', 'rekey'], { cwd: t.tree, env: { ...process.env, GOVERN_IDENTITY: t.k.alice.identity } });
    expect(rekey.code, rekey.stderr).to.equal(0);
    repo.commit({}, 'db1 leaves');
    const left = await diff(rotated);
    expect(left.code).to.equal(2);
    expect(left.stdout).to.contain('db1 reads db/password but is no longer among its recipients (data/roles/db.hcl:3): its run will fail on 1 host: db1\n');
    const json = await govern(['diff', '--no-cache', '--json', '--facts', facts, '--identity', path.join(t.dir, 'none'), rotated, 'HEAD', '.'], { cwd: t.tree });
    expect(JSON.parse(json.stdout).secrets).to.deep.equal([
      { note: 'encrypted value changed (data/roles/db.hcl:3, db/password)', hosts: ['db1'] },
      { note: 'readers of db/password changed (data/roles/db.hcl:3): removes db1', hosts: ['db1'] },
      { note: 'db1 reads db/password but is no longer among its recipients (data/roles/db.hcl:3): its run will fail', hosts: ['db1'] },
    ]);
    const none = await diff('HEAD');
    expect(none.stdout).to.equal('no change on 2 hosts\n');
  });

  it('diff shows a change of a value\'s names, such as one written into its label by hand #once', async () => {
    const t = setup();
    fs.rmSync(path.join(t.tree, 'facts.d'), { recursive: true });
    const facts = snapshots({ db1: { role: 'db', hostname: 'db1' } });
    writeFile(path.join(t.tree, 'recipients.hcl'), recipients(t, ['db1']));
    const repo = repository(t.tree);
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw1').code).to.equal(0);
    const first = repo.commit({}, 'first');
    const file = path.join(t.tree, 'data/roles/db.hcl');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('to=db+admins,', 'to=db+admins+web,'));
    repo.commit({}, 'harmless-looking');
    const r = await govern(['diff', '--no-cache', '--facts', facts, '--identity', path.join(t.dir, 'none'), first, 'HEAD', '.'], { cwd: t.tree });
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal('recipients of db/password changed (data/roles/db.hcl:3): +web (db+admins -> db+admins+web, by its label) on 1 host: db1\nreaders of db/password changed (data/roles/db.hcl:3): adds web1 on 1 host: db1\n');
  });

  it('an encrypted value outside data/ (inline, in a template, as a module default) is an error where it is written', async () => {
    const t = setup();
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], 'pw1').code).to.equal(0);
    const enc = /"(ENC\[age,[^"]+)"/.exec(fs.readFileSync(path.join(t.tree, 'data/roles/db.hcl'), 'utf8'))![1];
    const file = (name: string, body: string) => `file "${t.out}/${name}" {\n  ensure = "present"\n  owner  = "root"\n  group  = "root"\n  mode   = "0600"\n${body}}\n`;
    writeFile(path.join(t.tree, 'site.hcl'), file('inline', `  contents = "pw=${enc}"\n`) + file('templated', '  template = "./app.conf"\n') + 'module "app" {\n  source = "app"\n}\n');
    writeFile(path.join(t.tree, 'app.conf'), `password: ${enc}\n`);
    writeFile(path.join(t.tree, 'modules/app/variables.hcl'), `variable "pw" {\n  type    = "string"\n  default = "${enc}"\n}\n`);
    writeFile(path.join(t.tree, 'modules/app/main.hcl'), file('module', '  contents = "{{pw}}"\n'));
    for (const command of ['plan', 'run']) {
      const r = await govern([command, '--no-cache', t.tree, '--identity', t.k.db1.identity]);
      expect(r.code, r.stdout).to.equal(1);
      expect(r.stderr).to.contain(`site.hcl:6: file:${t.out}/inline: contents holds an encrypted value (ENC[age,...]) that would be used as its ciphertext: an encrypted value belongs in a data file under data/`);
      expect(r.stderr, r.stderr).to.contain(`file:${t.out}/templated: contents holds an encrypted value`);
      expect(r.stderr, r.stderr).to.contain(`modules/app/main.hcl:6: file:${t.out}/module: contents holds an encrypted value`);
    }
    expect(fs.readdirSync(t.out)).to.deep.equal([]);
  });

  it('a decrypted value in a resource\'s name, a tag or a command\'s environment, or a secret fact a command prints, is <sensitive> in every output and the record', async () => {
    const t = setup();
    const SECRET = 'Zq7-decrypted-Vx';
    const FACT = 'Fact-s3cret-Wy';
    expect(set(t.tree, ['data/roles/db.hcl', 'db/password', '--to', 'db,admins'], SECRET).code).to.equal(0);
    writeFile(path.join(t.tree, 'facts.d/secret/token'), FACT);
    writeFile(path.join(t.tree, 'site.hcl'), [
      `exec "echo {{data "db/password"}}" {\n  tags = ["t-{{data "db/password"}}"]\n}\n`,
      `exec "fails" {\n  command     = "sh -c 'echo PW=$PW {{fact "secret/token"}}; exit 3'"\n  environment = ["PW={{data "db/password"}}"]\n}\n`,
    ].join(''));
    const varDir = path.join(t.dir, 'var');
    const outputs = [
      await govern(['plan', '--no-cache', t.tree, '--identity', t.k.db1.identity]),
      await govern(['plan', '--no-cache', '--json', t.tree, '--identity', t.k.db1.identity]),
      await govern(['graph', '--no-cache', t.tree, '--identity', t.k.db1.identity]),
      await govern(['run', '--no-cache', '-vv', '--var-dir', varDir, t.tree, '--identity', t.k.db1.identity]),
      await govern(['run', '--no-cache', '--json', '--var-dir', varDir, t.tree, '--identity', t.k.db1.identity]),
    ];
    expect(outputs[3].code, outputs[3].stderr).to.equal(1);
    expect(outputs[3].stdout).to.contain('exec:echo <sensitive>');
    expect(outputs[3].stdout).to.contain('stdout: <sensitive> <sensitive>');
    const record = fs.readFileSync(path.join(varDir, 'last-run.json'), 'utf8');
    for (const text of [...outputs.flatMap((r) => [r.stdout, r.stderr]), record]) {
      expect(text).not.to.include(SECRET);
      expect(text).not.to.include(FACT);
    }
  });
});
