// Secrets end to end: `sensitive = true`, `show_diff = false` and `secret/...` facts, through the
// real CLI and the real file runner in both runner modes. The secret strings must appear nowhere
// govern writes: stdout, stderr, the run record, the runner cache.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { json } from '../support/state-tree.js';
import { tempDir, writeFile } from '../support/tmp.js';

const SECRETS = ['TOKEN-s3cr3t-value', 'NODIFF-hidden-value', 'Pa55w0rd-from-fact', 'VARS-secret-value'];

/** A state file without secrets. */
function plain(out: string, version: number): string {
  return `file "${out}/plain" {\n  ensure = "present"\n  contents = "plain ${version}\\n"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`;
}

function state(out: string, version: number): string {
  return `file "${out}/token" {
  ensure    = "present"
  contents  = "TOKEN-s3cr3t-value ${version}\\n"
  sensitive = true
  owner     = "root"
  group     = "root"
  mode      = "0600"
  notify    = ["exec:reload"]
}

file "${out}/nodiff" {
  ensure    = "present"
  contents  = "NODIFF-hidden-value ${version}\\n"
  show_diff = false
  owner     = "root"
  group     = "root"
  mode      = "0600"
}

file "${out}/db.conf" {
  ensure   = "present"
  contents = "password = {{fact "secret/db_password"}} ${version}\\n"
  owner    = "root"
  group    = "root"
  mode     = "0600"
}

file "${out}/app.conf" {
  ensure    = "present"
  template  = "app.conf"
  vars      = { key = "VARS-secret-value", n = ${version} }
  sensitive = true
  owner     = "root"
  group     = "root"
  mode      = "0600"
}

exec "reload" {
  command      = "/bin/true"
  refresh_only = true
}
`;
}

/** Every file under dir whose content holds one of the secrets. */
function filesWithSecrets(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.path, entry.name);
    if (!entry.isFile()) continue;
    const text = fs.readFileSync(file, 'latin1');
    if (SECRETS.some((s) => text.includes(s))) found.push(file);
  }
  return found;
}

describe('sensitive values', () => {
  for (const mode of ['persistent', 'oneshot']) {
    it(`never shows or stores a sensitive value, a show_diff = false content or a secret/ fact (${mode} mode)`, async () => {
      const dir = tempDir('govern-tmpl-');
      const out = path.join(dir, 'out');
      const cache = path.join(dir, 'cache');
      const varDir = path.join(dir, 'var');
      fs.mkdirSync(out);
      writeFile(path.join(dir, 'tree/facts.d/secret/db_password'), 'Pa55w0rd-from-fact');
      writeFile(path.join(dir, 'tree/templates.d/app.conf'), 'key={{key}} {{n}}\n');
      const tree = path.join(dir, 'tree');
      const run = (args: string[]) => govern(['run', tree, '--runner-mode', mode, '--cache-dir', cache, '--var-dir', varDir, ...args]);
      const outputs: string[] = [];

      writeFile(path.join(tree, 'site.hcl'), state(out, 1));
      writeFile(path.join(tree, 'plain.hcl'), plain(out, 1));
      const first = await run(['-v', '--json']);
      expect(first.code, first.stderr).to.equal(0);
      outputs.push(first.stdout, first.stderr);
      const report = json(first.stdout);
      expect(report.summary).to.include({ changed: 5, failed: 0 });
      expect(report.notifications[0]).to.include({ to: 'exec:reload', status: 'sent' });

      // Changed: the messages, diffs and -vv invocation lines of the change, in text and JSON.
      writeFile(path.join(tree, 'site.hcl'), state(out, 2));
      writeFile(path.join(tree, 'plain.hcl'), plain(out, 2));
      const noop = await run(['-vv', '--noop']);
      outputs.push(noop.stdout, noop.stderr);
      expect(noop.stdout).to.match(/noop +file:.*\/token +Would have changed content sha256:<sensitive> -> sha256:<sensitive>/);
      expect(noop.stdout).to.match(/running .*\/nodiff ensure=present contents\\=\\<sensitive\\> show_diff=false owner=root/);
      expect(noop.stdout).to.match(/running .*\/token ensure=present contents\\=\\<sensitive\\>/); // what the file is stays shown
      const second = await run(['-vv']);
      outputs.push(second.stdout, second.stderr);
      const third = await run(['-v', '--json', '--noop']);
      outputs.push(third.stdout, third.stderr);
      expect(json(third.stdout).summary).to.include({ changed: 0 });

      // The plain file's diff is still shown; the others are not, and the runner got the real values.
      expect(noop.stdout).to.include('+plain 2');
      expect(fs.readFileSync(path.join(out, 'token'), 'utf8')).to.equal('TOKEN-s3cr3t-value 2\n');
      expect(fs.readFileSync(path.join(out, 'db.conf'), 'utf8')).to.equal('password = Pa55w0rd-from-fact 2\n');
      expect(fs.readFileSync(path.join(out, 'app.conf'), 'utf8')).to.equal('key=VARS-secret-value 2\n');

      for (const text of outputs) for (const secret of SECRETS) expect(text).not.to.include(secret);
      expect(filesWithSecrets(cache)).to.deep.equal([]);
      expect(filesWithSecrets(varDir)).to.deep.equal([]);
      // The HCL parse cache of old is gone; what planning keeps of a state file holds none of its text (parse-cache.ts, kept-form.ts).
      expect(fs.readdirSync(cache).filter((name) => name.startsWith('hcl-'))).to.deep.equal([]);
    });
  }

  it('keeps a sensitive resource\'s values out of the problems found while planning', async () => {
    const dir = tempDir('govern-tmpl-');
    writeFile(path.join(dir, 'tree/a.hcl'), 'file "/tmp/govern-tmpl-never" {\n  ensure = "present"\n  contents = "TOKEN-s3cr3t-value"\n  sensitive = true\n  owner = "root"\n  group = "root"\n  mode = "TOKEN-s3cr3t-value"\n}\n');
    const r = await govern(['run', '--no-cache', path.join(dir, 'tree')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('a.hcl:7: file:/tmp/govern-tmpl-never: mode');
    expect(r.stderr).not.to.include('s3cr3t');
  });

  it('hides the message of a template error on the line that read a secret/ fact: a helper may quote it changed #once', async () => {
    const dir = tempDir('govern-tmpl-');
    writeFile(path.join(dir, 'tree/facts.d/secret/db_password'), 'Pa55w0rd-from-fact');
    writeFile(path.join(dir, 'tree/a.hcl'), 'file "/tmp/govern-tmpl-never" {\n  ensure = "present"\n  contents = "{{yesno (fact "secret/db_password")}}"\n}\n');
    const r = await govern(['plan', '--no-cache', path.join(dir, 'tree')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('a.hcl:3: yesno: an error on a line that reads a sensitive value (its message is hidden');
    expect(`${r.stdout}${r.stderr}`.toLowerCase()).not.to.include('pa55w0rd');
  });
});
