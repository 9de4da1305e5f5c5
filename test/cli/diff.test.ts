import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { defaultStateTree } from '../../src/config/paths.js';
import { govern } from '../support/cli.js';
import { runnersWith } from '../support/recording-runner.js';
import { repository, snapshots } from '../support/preview.js';
import { tempDir, writeFile } from '../support/tmp.js';

const NGINX_V1 = `file "/etc/nginx/nginx.conf" {\n  contents = <<-EOT\n    worker_processes 2;\n    user {{fact "web/user"}};\n  EOT\n}\n`;
const NGINX_V2 = NGINX_V1.replace('worker_processes 2', 'worker_processes 4');
const DB = `{{#if (eq (fact "role") "db")}}pkg "redis" {\n  version = "7"\n}\n{{/if}}`;

describe('govern diff #once', () => {
  /** Three hosts' snapshots and recording runners, made for each test (temporary directories go after each). */
  function diff(repo: string, args: string[]) {
    const hosts = snapshots({
      web1: { role: 'web', 'web/user': 'www-data' },
      web2: { role: 'web', 'web/user': 'www-data' },
      db1: { role: 'db', 'web/user': 'nobody' },
    });
    const runners = runnersWith(path.join(tempDir(), 'runners'), path.join(tempDir(), 'calls.log'), ['file', 'pkg', 'exec']);
    return govern(['diff', '--runners-dir', runners, '--no-cache', '--facts', hosts, ...args], { cwd: repo });
  }

  it('groups identical changes across hosts, contents as unified diffs, and exits 2', async () => {
    const repo = repository();
    const first = repo.commit({ 'states/nginx.hcl': NGINX_V1, 'states/old.hcl': 'exec "old job" {\n  command = "true"\n}\n' }, 'first');
    repo.commit({ 'states/nginx.hcl': NGINX_V2, 'states/db.hcl': DB, 'states/old.hcl': null }, 'second');
    // Uncommitted work is not what either revision holds.
    writeFile(path.join(repo.dir, 'states/nginx.hcl'), 'not even HCL {');
    const r = await diff(repo.dir, [first, 'HEAD', 'states']);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal(
      [
        'exec:old job removed on 3 hosts: db1, web1, web2',
        'file:/etc/nginx/nginx.conf changed on 2 hosts: web1, web2',
        '    contents:',
        `      --- file:/etc/nginx/nginx.conf (${first})`,
        '      +++ file:/etc/nginx/nginx.conf (HEAD)',
        '      @@ -1,2 +1,2 @@',
        '      -worker_processes 2;',
        '      +worker_processes 4;',
        '       user www-data;',
        'file:/etc/nginx/nginx.conf changed on 1 host: db1',
        '    contents:',
        `      --- file:/etc/nginx/nginx.conf (${first})`,
        '      +++ file:/etc/nginx/nginx.conf (HEAD)',
        '      @@ -1,2 +1,2 @@',
        '      -worker_processes 2;',
        '      +worker_processes 4;',
        '       user nobody;',
        'pkg:redis added on 1 host: db1',
        '    version = "7"',
        '',
        'Summary (3 hosts planned):',
        '  3 hosts: exec:old job removed',
        '  2 hosts: file:/etc/nginx/nginx.conf contents',
        '  1 host: file:/etc/nginx/nginx.conf contents',
        '  1 host: pkg:redis added',
        '',
      ].join('\n'),
    );
    const again = await diff(repo.dir, [first, 'HEAD', 'states', '--json']);
    expect(again.code).to.equal(2);
    const doc = JSON.parse(again.stdout);
    expect(doc.hosts).to.deep.equal(['db1', 'web1', 'web2']);
    expect(doc.changes.map((c: { ref: string; hosts: string[] }) => `${c.ref} ${c.hosts.length}`)).to.deep.equal([
      'exec:old job 3',
      'file:/etc/nginx/nginx.conf 2',
      'file:/etc/nginx/nginx.conf 1',
      'pkg:redis 1',
    ]);
    expect(JSON.parse((await diff(repo.dir, [first, 'HEAD', 'states', '--json'])).stdout)).to.deep.equal(doc);
  });

  it('says which health checks a commit adds, removes or changes, as it says of resources', async () => {
    const repo = repository();
    const nginx = (more: string) => `health "nginx answers" {\n  port = 80\n${more}}\n`;
    const a = repo.commit({ 'states/h.hcl': nginx('') + 'health "motd" {\n  file = "/etc/motd"\n}\n' }, 'a');
    const b = repo.commit({ 'states/h.hcl': nginx('  timeout = "5s"\n  retries = 3\n') + 'health "site" {\n  url    = "http://127.0.0.1/"\n  status = 200\n}\n' }, 'b');
    const r = await diff(repo.dir, [a, b, 'states']);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal(
      [
        'health "motd" removed on 3 hosts: db1, web1, web2',
        'health "nginx answers" changed on 3 hosts: db1, web1, web2',
        '    retries: (not set) -> 3',
        '    timeout: (not set) -> "5s"',
        'health "site" added on 3 hosts: db1, web1, web2',
        '    url = "http://127.0.0.1/"',
        '    status = 200',
        '',
        'Summary (3 hosts planned):',
        '  3 hosts: health "motd" removed',
        '  3 hosts: health "nginx answers" retries, timeout',
        '  3 hosts: health "site" added',
        '',
      ].join('\n'),
    );
    // Moving a check to another line is no change to what it checks.
    const c = repo.commit({ 'states/h.hcl': '\n\n' + (await fs.promises.readFile(path.join(repo.dir, 'states/h.hcl'), 'utf8')) }, 'c');
    expect((await diff(repo.dir, [b, c, 'states'])).stdout).to.equal('no change on 3 hosts\n');
    const json = JSON.parse((await diff(repo.dir, [a, b, 'states', '--json'])).stdout);
    expect(json.changes.map((g: { ref: string; change: string }) => `${g.change} ${g.ref}`)).to.deep.equal(['removed health "motd"', 'changed health "nginx answers"', 'added health "site"']);
  });

  it('exits 0 when nothing changes, and says a hidden value changed without showing it', async () => {
    const repo = repository();
    const secret = (word: string) => `exec "token" {\n  command   = "set-token ${word}"\n  sensitive = true\n}\n`;
    const a = repo.commit({ 'states/t.hcl': secret('alpha-secret') }, 'a');
    const b = repo.commit({ 'README': 'docs only\n' }, 'b');
    const none = await diff(repo.dir, [a, b, 'states']);
    expect(none.stdout).to.equal('no change on 3 hosts\n');
    expect(none.code).to.equal(0);
    const c = repo.commit({ 'states/t.hcl': secret('bravo-secret') }, 'c');
    const r = await diff(path.join(repo.dir, 'states'), [b, c, '.']);
    expect(r.code).to.equal(2);
    expect(r.stdout).to.contain('exec:token changed on 3 hosts: db1, web1, web2\n    command: "<sensitive>" -> "<sensitive>"\n');
    expect(r.stdout).not.to.match(/alpha|bravo/);
  });

  it('without PATH plans the default state tree, as plan, data and modules do, also inside a checkout', async () => {
    const repo = repository();
    const a = repo.commit({ 'states/a.hcl': 'pkg "a" {}\n' }, 'a');
    const states = path.join(repo.dir, 'states');
    const r = await diff(states, [a, a]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`^govern: ${defaultStateTree()}: no such file or directory \\(without PATH, govern diff plans the default state tree, as govern run does: in a checkout, give the tree, e.g. govern diff ${a} ${a} \\.\\)\n$`));
    for (const command of [['data'], ['modules']]) {
      const other = await govern(command, { cwd: states });
      expect(other.stderr, command[0]).to.contain(defaultStateTree());
    }
    const plan = await govern(['plan', '--json'], { cwd: states });
    expect(JSON.parse(plan.stdout).hosts[0].errors.join('\n')).to.match(/states: no such file or directory/);
    expect(plan.stdout).not.to.contain('pkg:a');
    expect((await diff(states, [a, a, '.'])).stdout).to.equal('no change on 3 hosts\n');
  });

  it('exits 1 with every host\'s problems when a revision does not plan, and names an unknown revision', async () => {
    const repo = repository();
    const a = repo.commit({ 'states/a.hcl': 'pkg "a" {}\n' }, 'a');
    const b = repo.commit({ 'states/a.hcl': 'pkg "a" {\n  after = ["pkg:nope"]\n}\n' }, 'b');
    const r = await diff(repo.dir, [a, b, 'states']);
    expect(r.code).to.equal(1);
    expect(r.stderr.split('\n').filter((l) => l !== '')).to.have.length(3);
    expect(r.stderr).to.match(/^govern: db1: at [0-9a-f]+: a\.hcl:2: pkg:a: after names "pkg:nope"/);
    const unknown = await diff(repo.dir, ['no-such-branch', b, 'states']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.equal(`govern: no-such-branch: not a commit in ${fs.realpathSync(repo.dir)}\n`);
  });
});
