// The server keeps what it parsed and checked of the files that did not change (check-tree.ts,
// `parses`): after each change of a sequence, what it publishes of every file must be what a fresh
// `govern check` of the same texts says of it, also for files that did not change but are reached
// by the change (a reference to a renamed block, a cycle across files, a module's parameters).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../../src/lsp/diagnostics.js';
import type { CheckProblem } from '../../src/check/locate.js';
import { GOVERN, govern } from '../support/cli.js';
import { LspClient, uri, type Diagnostic } from '../support/lsp-client.js';
import { tempDir, writeFile } from '../support/tmp.js';

const A = (dir: string, name = 'motd', ensure = 'present', after = '') => `file "${dir}/${name}" {
  ensure   = "${ensure}"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = "on {{fact "hostname"}}\\n"
}

exec "first" {
  command = "/usr/bin/true"
${after}}
`;
const B = (dir: string, after = `["file:${dir}/motd"]`) => `exec "second" {
  command = "/usr/bin/true"
  after   = ${after}
}
`;
const C = (parameter = 'name') => `module "shop" {
  source = "site"
  ${parameter} = "shop"
}
`;

/** Each file's problems as `govern check --format json` of the tree on disk says them, as diagnostics. */
async function freshCheck(root: string, files: string[]): Promise<Map<string, Diagnostic[]>> {
  const r = await govern(['check', '--format', 'json', root]);
  expect(r.code, r.stderr).to.be.oneOf([0, 1]);
  const problems = (JSON.parse(r.stdout) as { problems: CheckProblem[] }).problems;
  const byFile = new Map<string, Diagnostic[]>(files.map((f) => [uri(f), []]));
  for (const p of problems) {
    const on = p.file !== undefined ? [uri(path.join(root, p.file))] : files.map((f) => uri(f));
    for (const u of on) byFile.get(u)?.push(diagnostic(p));
  }
  return byFile;
}

describe('govern lsp, incremental checks', function () {
  this.timeout(120_000);
  let client: LspClient | undefined;
  afterEach(() => client?.kill());

  it("after each of a sequence of changes, publishes of every file what a fresh govern check says of it", async () => {
    const root = tempDir();
    writeFile(path.join(root, 'modules', 'site', 'variables.hcl'), 'variable "name" {\n  type = "string"\n}\n');
    writeFile(path.join(root, 'modules', 'site', 'site.hcl'), 'exec "site-{{name}}" {\n  command = "/usr/bin/true"\n}\n');
    const files = { a: path.join(root, 'a.hcl'), b: path.join(root, 'b.hcl'), c: path.join(root, 'c.hcl') };
    const texts = { a: A(root), b: B(root), c: C() };
    for (const k of ['a', 'b', 'c'] as const) writeFile(files[k], texts[k]);
    client = await LspClient.start(GOVERN, root);
    for (const k of ['a', 'b', 'c'] as const) {
      const next = client.nextDiagnostics(files[k]);
      await client.open(files[k], texts[k]);
      expect(await next).to.deep.equal([]);
    }
    const steps: [keyof typeof files, string, string][] = [
      ['a', A(root, 'motd', 'presen'), 'a key with a value not allowed'],
      ['a', A(root, 'motd2'), 'the block b refers to renamed (b unchanged)'],
      ['a', A(root), 'renamed back'],
      ['a', A(root, 'motd', 'present', '  after   = ["exec:second"]\n'), 'a refers to b'],
      ['b', B(root, '["exec:first"]'), 'a cycle across a and b'],
      ['c', C('nme'), "a module's parameter misspelt"],
      ['b', B(root, '["file:'), 'b does not parse'],
      ['c', C(), 'the parameter fixed while b does not parse'],
      ['b', B(root), 'b parses again, the cycle gone'],
      ['a', A(root), 'back to the start'],
    ];
    let problems = 0;
    for (const [k, text, what] of steps) {
      fs.writeFileSync(files[k], text);
      const next = client.nextDiagnostics(files[k]);
      await client.change(files[k], text);
      await next;
      // Answered once the check under way and any it owes have ended, after their diagnostics.
      await client.request('textDocument/documentSymbol', files[k]);
      const fresh = await freshCheck(root, Object.values(files));
      for (const f of Object.values(files)) expect(client.latest.get(uri(f)), `${what}: ${path.basename(f)}`).to.deep.equal(fresh.get(uri(f)));
      problems += [...fresh.values()].reduce((n, list) => n + list.length, 0);
    }
    expect(problems, 'the changes made problems to compare').to.be.greaterThan(6);
    expect(await client.stop()).to.equal(0);
  });
});
