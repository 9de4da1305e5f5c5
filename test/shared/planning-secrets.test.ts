// Secrets in the messages of planning: whatever phase made a message (a check of a value, the HCL
// parser, a template's {{log}}), a secret fact's value or a sensitive resource's never reaches
// stderr, --json, the run record, govern status or the metrics file.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { PlanningSecrets } from '../../src/shared/planning-secrets.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** Runs the tree as a user would, in the modes given, then asks status; everything govern printed or stored. */
async function everythingWritten(tree: string, modes: string[][]): Promise<{ code: number | null; all: string; stderr: string }> {
  const dir = tempDir('govern-psec-');
  const varDir = path.join(dir, 'var');
  const metrics = path.join(dir, 'govern.prom');
  const texts: string[] = [];
  let first: { code: number | null; stderr: string } | undefined;
  for (const mode of modes) {
    const r = await govern([...mode, '--no-cache', ...(mode[0] === 'run' ? ['--var-dir', varDir, '--metrics-file', metrics] : []), tree]);
    first ??= r;
    texts.push(r.stdout, r.stderr);
  }
  const status = await govern(['status', '--var-dir', varDir]);
  texts.push(status.stdout, status.stderr);
  for (const file of [path.join(varDir, 'last-run.json'), metrics]) texts.push(fs.readFileSync(file, 'utf8'));
  return { code: first!.code, all: texts.join('\n'), stderr: first!.stderr };
}

describe('secrets in the messages of planning (shared/planning-secrets.ts)', () => {
  it('hides secret facts and sensitive values in every problem of planning, the HCL parser\'s included', async () => {
    const dir = tempDir('govern-psec-');
    const tree = path.join(dir, 'tree');
    const resource = (contents: string, extra = '') => `file "/tmp/govern-psec-never" {\n  ensure = "present"\n  contents = "${contents}"\n${extra}  owner = "root"\n  group = "root"\n  mode = "0600"\n}\n`;
    // A value holding "${": the check of HCL expressions quotes the value.
    writeFile(path.join(tree, 'facts.d/secret/db_password'), 'Tr0ub4dor${Zq7}');
    writeFile(path.join(tree, 'a-dollar.hcl'), resource('password = {{fact "secret/db_password"}}\\n'));
    // A value holding "%{": the parser quotes its tail, in a sensitive resource and from a secret fact.
    writeFile(path.join(tree, 'b-percent.hcl'), resource('pw = Ab%{Kx9SecretTail}', '  sensitive = true\n'));
    writeFile(path.join(tree, 'facts.d/secret/api_password'), 'Pw%{Yq8FactTail}');
    writeFile(path.join(tree, 'c-fact.hcl'), resource('password = {{fact "secret/api_password"}}'));
    const r = await everythingWritten(tree, [['run'], ['run', '--json']]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/a-dollar\.hcl:3(:\d+)?: .*"\$\{"/);
    // Each file's error is reported; what a parser may quote of the value is checked below.
    expect(r.stderr).to.match(/b-percent\.hcl:3(:\d+)?: .*"%\{"/);
    expect(r.stderr).to.match(/c-fact\.hcl:3(:\d+)?: .*"%\{"/);
    // The parser's hint still reads: it quotes nothing of the file.
    expect(r.stderr).to.include('"%%{"');
    expect(r.all).to.include('GOVERN CRITICAL - stopped before applying');
    for (const secret of ['Tr0ub4dor', 'Zq7', 'Kx9SecretTail', 'Yq8FactTail']) expect(r.all).not.to.include(secret);
  });

  it('hides a secret fact a {{log}} shows, in a state file and a file template, in every mode', async () => {
    const dir = tempDir('govern-psec-');
    const out = path.join(dir, 'out');
    writeFile(path.join(dir, 'tree/facts.d/secret/api_key'), 'ApiKey-9f8e7d6c');
    writeFile(path.join(dir, 'tree/templates.d/t.conf'), 'x {{log "template key:" (fact "secret/api_key")}}\n');
    writeFile(path.join(dir, 'tree/a.hcl'), `{{log "debug key:" (fact "secret/api_key")}}\nfile "${out}" {\n  ensure = "present"\n  template = "t.conf"\n  owner = "root"\n  group = "root"\n  mode = "0600"\n}\n`);
    const r = await everythingWritten(path.join(dir, 'tree'), [['run'], ['run', '--noop'], ['run', '--json'], ['graph']]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include('a.hcl:1: debug key: <sensitive>');
    expect(r.stderr).to.include('t.conf:1: template key: <sensitive>');
    expect(r.all).not.to.include('ApiKey-9f8e7d6c');
    expect(fs.readFileSync(out, 'utf8')).to.equal('x \n');
  });

  it('masks with what sensitive resources hide, but not with a value another resource shows anyway #once', () => {
    const secrets = new PlanningSecrets();
    secrets.addResource({ attrs: { contents: 'hunter2-secret', owner: 'root' }, sensitive: true });
    secrets.addResource({ attrs: { owner: 'root' } });
    secrets.addFactValues(['fact "quoted"']);
    expect(secrets.mask('hunter2-secret owned by root')).to.equal('<sensitive> owned by root');
    expect(secrets.maskProblem({ file: 'a.hcl', message: 'value "fact \\"quoted\\""' }).message).to.equal('value "<sensitive>"');
  });

  it('hides the quoted fragments of a state file that failed to parse only when it holds a secret #once', () => {
    const secrets = new PlanningSecrets();
    secrets.addUnparsed('secret.hcl', 'x "y" {\n  a = "Kx9 %{Tail}"\n  sensitive = true\n}\n', false);
    secrets.addUnparsed('plain.hcl', 'x "y" {\n  a = "%{Tail}"\n}\n', false);
    const message = '"Tail" is not a valid keyword: write "%%{"';
    expect(secrets.maskProblem({ file: 'secret.hcl', message }).message).to.equal('"<sensitive>" is not a valid keyword: write "%%{"');
    expect(secrets.maskProblem({ file: 'plain.hcl', message }).message).to.equal(message);
  });
});
