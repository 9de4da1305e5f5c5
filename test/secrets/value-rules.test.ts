// Who an encrypted value is for is decided by recipients.hcl, never by the value's own `to=` label
// (issue 38, item 6): a label edited in one commit to add a group that shares a member with the
// value's readers made an admin's rekey encrypt the value to an outsider. With `values` rules the
// rule decides and a label that names more is reported at its line and corrected; without rules
// rekey adds no reader the age header does not show. Real age, real keys, real git for the diff.
import { config, expect } from 'chai';
config.truncateThreshold = 0;
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
  k: Record<'db1' | 'web1' | 'mallory' | 'alice', TestKey>;
}

/** recipients.hcl: `extra` is a group sharing db1 with the value's readers, plus the outsider mallory. */
function recipientsHcl(k: Tree['k'], values = ''): string {
  return [
    'hosts = {',
    `  db1     = "${k.db1.recipient}"`,
    `  web1    = "${k.web1.recipient}"`,
    `  mallory = "${k.mallory.recipient}"`,
    '}',
    `people = { alice = "${k.alice.recipient}" }`,
    'groups = {',
    '  db     = ["db1"]',
    '  web    = ["web1"]',
    '  admins = ["alice"]',
    '  extra  = ["db1", "mallory"]',
    '}',
    values,
  ].join('\n');
}

const RULES = 'values = {\n  "roles/*.hcl"      = ["db", "admins"]\n  "hosts/{host}.hcl" = ["{host}", "admins"]\n}\n';

function setup(values = ''): Tree {
  const dir = tempDir('govern-value-rules-');
  const k = { db1: sshKey(dir, 'db1'), web1: sshKey(dir, 'web1'), mallory: sshKey(dir, 'mallory'), alice: ageKey(dir, 'alice') };
  const tree = path.join(dir, 'tree');
  writeFile(path.join(tree, 'recipients.hcl'), recipientsHcl(k, values));
  writeFile(path.join(tree, 'hierarchy.hcl'), 'levels = [\n  "hosts/{{fact "hostname"}}",\n  "roles/{{fact "role"}}",\n]\n');
  writeFile(path.join(tree, 'data/roles/db.hcl'), 'db = {\n  user     = "app"\n  password = "x"\n}\n');
  writeFile(path.join(tree, 'site.hcl'), 'file "/tmp/never-written-db.conf" {\n  ensure   = "present"\n  contents = "password={{data "db/password" default=""}}\\n"\n  owner    = "root"\n  group    = "root"\n  mode     = "0600"\n}\n');
  return { dir, tree, k };
}

function set(t: Tree, args: string[], value: string): { code: number; stderr: string } {
  try {
    execFileSync(GOVERN, ['secret', 'set', ...args], { cwd: t.tree, input: value, stdio: ['pipe', 'pipe', 'pipe'] });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { status: number; stderr: Buffer };
    return { code: err.status, stderr: err.stderr.toString() };
  }
}

const DB = 'data/roles/db.hcl';

/** The one-commit attack: `extra` written into the value's label. */
function tamper(t: Tree): string {
  const file = path.join(t.tree, DB);
  const text = fs.readFileSync(file, 'utf8').replace('to=db+admins,', 'to=db+admins+extra,');
  fs.writeFileSync(file, text);
  return text;
}

const rekey = (t: Tree, ...args: string[]) => govern(['secret', 'rekey', ...args, t.tree], { env: { ...process.env, GOVERN_IDENTITY: t.k.alice.identity } });
const show = (t: Tree, key: TestKey, file = DB, name = 'db/password') => govern(['secret', 'show', path.join(t.tree, file), name, '--identity', key.identity]);

describe('who an encrypted value is for: recipients.hcl decides, the to= label is a checked copy #once', () => {
  it('without rules, an admin\'s rekey does not give the value to a group written into its label that shares a member with its readers', async () => {
    const t = setup();
    expect(set(t, [DB, 'db/password', '--to', 'db,admins'], 'pw-1').code).to.equal(0);
    const tampered = tamper(t);
    for (const args of [[], ['--all']]) {
      const r = await rekey(t, ...args);
      expect(r.code, r.stdout).to.equal(1);
      expect(r.stderr).to.contain(`${path.join(t.tree, DB)}:3: db/password: left as it was: to=db+admins+extra would add mallory, and no values rule of recipients.hcl matches the value: rekey adds no reader on the word of a label`);
      expect(fs.readFileSync(path.join(t.tree, DB), 'utf8')).to.equal(tampered);
      expect((await show(t, t.k.mallory)).code).to.equal(1);
    }
    // What the label says still removes: db1 leaves `db` and `extra`, and rekey takes it out.
    fs.writeFileSync(path.join(t.tree, 'recipients.hcl'), recipientsHcl(t.k).replace('db     = ["db1"]', 'db     = ["web1"]').replace('extra  = ["db1", "mallory"]', 'extra  = ["alice"]'));
    fs.writeFileSync(path.join(t.tree, DB), tampered.replace('to=db+admins+extra,', 'to=admins,'));
    const removed = await rekey(t);
    expect(removed.stdout, removed.stderr).to.equal(`${path.join(t.tree, DB)}:3: db/password: encrypted again (removes db1)\n1 value of 1 encrypted again\n`);
    expect((await show(t, t.k.db1)).code).to.equal(1);
  });

  it('with a values rule, rekey encrypts to the rule: a label naming more is reported at its line and corrected, never followed', async () => {
    const t = setup(RULES);
    expect(set(t, [DB, 'db/password'], 'pw-1').code).to.equal(0); // no --to: the rule decides
    expect(fs.readFileSync(path.join(t.tree, DB), 'utf8')).to.contain('"ENC[age,to=db+admins,');
    tamper(t);
    const r = await rekey(t);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.contain(`${path.join(t.tree, DB)}:3: db/password: its label to=db+admins+extra names extra, which its rule does not (${path.join(t.tree, 'recipients.hcl')}:14: "roles/*.hcl" = db, admins)`);
    expect(r.stdout).to.equal(`${path.join(t.tree, DB)}:3: db/password: label to=db+admins+extra -> to=db+admins (the readers were already these)\n1 value of 1 encrypted again\n`);
    expect(fs.readFileSync(path.join(t.tree, DB), 'utf8')).to.contain('"ENC[age,to=db+admins,');
    expect((await show(t, t.k.mallory)).code).to.equal(1);
    const all = await rekey(t, '--all');
    expect(all.code, all.stderr).to.equal(0);
    expect((await show(t, t.k.mallory)).code).to.equal(1);
    expect((await show(t, t.k.db1)).stdout).to.equal('pw-1');

    // A rule, reviewed in recipients.hcl, is what adds a reader: web joins the database's values.
    fs.writeFileSync(path.join(t.tree, 'recipients.hcl'), recipientsHcl(t.k, RULES.replace('["db", "admins"]', '["db", "web", "admins"]')));
    const grown = await rekey(t);
    expect(grown.stdout, grown.stderr).to.equal(`${path.join(t.tree, DB)}:3: db/password: encrypted again (adds web1; label to=db+admins -> to=db+web+admins)\n1 value of 1 encrypted again\n`);
    expect((await show(t, t.k.web1)).stdout).to.equal('pw-1');
  });

  it('set: a {NAME} rule per host, a key-level rule, --to that disagrees with the rule, and a value no rule matches', async () => {
    const t = setup('values = {\n  "roles/db.hcl:db/password" = ["db", "admins"]\n  "hosts/{host}.hcl"         = ["{host}", "admins"]\n}\n');
    expect(set(t, ['data/hosts/web1.hcl', 'token'], 'w1').code).to.equal(0);
    expect(fs.readFileSync(path.join(t.tree, 'data/hosts/web1.hcl'), 'utf8')).to.match(/^token = "ENC\[age,to=web1\+admins,/);
    expect((await show(t, t.k.web1, 'data/hosts/web1.hcl', 'token')).stdout).to.equal('w1');
    const other = set(t, [DB, 'db/password', '--to', 'db,admins,extra'], 'pw');
    expect(other.code).to.equal(1);
    expect(other.stderr).to.contain('recipients.hcl:14: "roles/db.hcl:db/password" gives db/password of data/roles/db.hcl to db, admins, not db, admins, extra');
    expect(set(t, [DB, 'db/password', '--to', 'admins,db'], 'pw').code).to.equal(0);
    const unmatched = set(t, [DB, 'db/user'], 'u');
    expect(unmatched.code).to.equal(1);
    expect(unmatched.stderr).to.contain('no values rule of');
    expect(unmatched.stderr).to.contain('matches db/user of data/roles/db.hcl: --to NAME[,NAME...] names who can read the value');
    const unknownHost = set(t, ['data/hosts/web9.hcl', 'token'], 'x');
    expect(unknownHost.code).to.equal(1);
    expect(unknownHost.stderr).to.contain('no host, person or group "web9"');
    expect(fs.existsSync(path.join(t.tree, 'data/hosts/web9.hcl'))).to.equal(false);
    const readers = await govern(['secret', 'recipients', DB], { cwd: t.tree });
    expect(readers.stdout).to.equal('db/password\tdb,admins\tdb1,alice\n');
  });

  it('bad rules are errors at their lines, every one at once', async () => {
    const t = setup('values = {\n  "../x/*.hcl" = ["db"]\n  "roles/*.hcl" = ["nobody"]\n  "hosts/{h}.hcl" = ["{host}"]\n  "common.hcl" = []\n}\n');
    const r = set(t, [DB, 'db/password', '--to', 'db'], 'pw');
    expect(r.code).to.equal(1);
    const file = path.join(t.tree, 'recipients.hcl');
    expect(r.stderr).to.contain(`${file}:14: values."../x/*.hcl": the file glob "../x/*.hcl" must stay inside data/`);
    expect(r.stderr).to.contain(`${file}:15: values."roles/*.hcl": "nobody": no host, person or group of this file`);
    expect(r.stderr).to.contain(`${file}:16: values."hosts/{h}.hcl": "{host}": no host, person or group of this file nor a {NAME} of its glob ({h})`);
    expect(r.stderr).to.contain(`${file}:17: values."common.hcl": must be a non-empty list`);
    expect(r.stderr).not.to.match(/internal error|    at /);
  });

  it('diff shows a change of a value\'s recipients, by its label or by its rule, and a label that disagrees with its rule', async () => {
    const t = setup();
    const facts = snapshots({ db1: { role: 'db', hostname: 'db1' } });
    const repo = repository(t.tree);
    expect(set(t, [DB, 'db/password', '--to', 'db,admins'], 'pw-1').code).to.equal(0);
    const first = repo.commit({}, 'first');
    tamper(t);
    const tampered = repo.commit({}, 'harmless-looking');
    const diff = (from: string) => govern(['diff', '--no-cache', '--facts', facts, '--identity', path.join(t.dir, 'none'), from, 'HEAD', '.'], { cwd: t.tree });
    const byLabel = await diff(first);
    expect(byLabel.code).to.equal(2);
    expect(byLabel.stdout).to.contain('recipients of db/password changed (data/roles/db.hcl:3): +extra (db+admins -> db+admins+extra, by its label) on 1 host: db1\n');
    expect(byLabel.stdout).to.contain('readers of db/password changed (data/roles/db.hcl:3): adds mallory on 1 host: db1\n');

    // The rules arrive: the label now disagrees with the rule, which decides.
    fs.writeFileSync(path.join(t.tree, 'recipients.hcl'), recipientsHcl(t.k, RULES));
    const ruled = repo.commit({}, 'rules');
    const withRule = await diff(tampered);
    expect(withRule.stdout).to.contain('recipients of db/password changed (data/roles/db.hcl:3): -extra (db+admins+extra -> db+admins, by recipients.hcl:14)');
    expect(withRule.stdout).to.contain('label of db/password disagrees with its rule (data/roles/db.hcl:3): its label to=db+admins+extra names extra, which its rule does not (recipients.hcl:14: "roles/*.hcl" = db, admins)');
    expect(withRule.stdout).to.contain('readers of db/password changed (data/roles/db.hcl:3): removes mallory');

    // A rule changed in recipients.hcl is a change of the value's recipients too.
    fs.writeFileSync(path.join(t.tree, 'recipients.hcl'), recipientsHcl(t.k, RULES.replace('["db", "admins"]', '["db", "admins", "web"]')));
    repo.commit({}, 'web reads it');
    const byRule = await diff(ruled);
    expect(byRule.stdout).to.contain('recipients of db/password changed (data/roles/db.hcl:3): +web (db+admins -> db+admins+web, by recipients.hcl:14) on 1 host: db1\n');
    expect(byRule.stdout).not.to.contain('label of db/password');
  });
});
