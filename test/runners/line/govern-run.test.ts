// `govern run` and `govern graph` with the real line runner: a file resource and the lines edited in
// it, in order (the implicit edge from the file to its lines), in both runner modes; a noop run that
// changes nothing and shows the diff; bad lines refused before anything is applied.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { snapshot } from '../file/support.js';
import { MODES } from '../../support/runner-modes.js';

function stateTree(lines = '') {
  const dir = tempDir('govern-line-run-');
  const states = path.join(dir, 'states');
  const etc = path.join(dir, 'etc');
  const conf = path.join(etc, 'sysctl.conf');
  writeFile(conf, '# tuning\nkernel.x = 1\nvm.swappiness=60\n', 0o600);
  writeFile(
    path.join(states, 'lines.hcl'),
    `line "swappiness" {
  path  = "${conf}"
  line  = "vm.swappiness = 10"
  match = "^\\\\s*vm\\\\.swappiness\\\\s*="
}

line "dirty ratio" {
  path         = "${conf}"
  line         = "vm.dirty_ratio = 5"
  insert_after = "^# tuning"
}
${lines}`,
  );
  writeFile(
    path.join(states, 'file.hcl'),
    `file "${conf}" {
  ensure = "present"
  owner  = "root"
  group  = "root"
  mode   = "0640"
}
`,
  );
  const run = async (...extra: string[]) => {
    const r = await govern(['run', states, '--json', ...extra]);
    return { code: r.code, stderr: r.stderr, stdout: r.stdout, report: r.stdout.startsWith('{') ? (JSON.parse(r.stdout) as RunReport) : undefined };
  };
  return { etc, states, conf, run };
}

describe('govern run with the line runner', function () {
  this.timeout(120_000);

  it('govern graph orders each line after the file resource of its path #once', async () => {
    const t = stateTree();
    const r = await govern(['graph', t.states]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`"file:${t.conf}" -> "line:swappiness" [label="autorequire"];`);
    expect(r.stdout).to.contain(`"file:${t.conf}" -> "line:dirty ratio" [label="autorequire"];`);
  });

  for (const mode of MODES) {
    it(`the file first, then its lines; a noop run before changes nothing; the second run changes nothing (${mode} runners)`, async () => {
      const t = stateTree();
      const before = snapshot(t.etc);
      const noop = await t.run('--noop', '--runner-mode', mode);
      expect(noop.code, noop.stderr).to.equal(0);
      expect(noop.report!.resources.map((r) => [r.ref, r.message])).to.deep.equal([
        [`file:${t.conf}`, 'Would have changed mode 0600 -> 0640'],
        ['line:swappiness', 'Would have replaced line 3'],
        ['line:dirty ratio', 'Would have added the line after line 1'],
      ]);
      // The file is 0600: its lines stay out of the report, which everyone can read (docs/security.md).
      expect(noop.report!.resources[1].diff).to.equal(undefined);
      expect(noop.stdout).not.to.include('kernel.x');
      expect(noop.stdout).to.include(`content changed (diff not shown: ${t.conf} is not readable by all (mode 0600), and the report is)`);
      expect(snapshot(t.etc), 'noop changed nothing').to.deep.equal(before);

      const first = await t.run('--runner-mode', mode);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report!.resources.map((r) => [r.ref, r.status, r.message])).to.deep.equal([
        [`file:${t.conf}`, 'changed', 'changed mode 0600 -> 0640'],
        ['line:swappiness', 'changed', 'replaced line 3'],
        ['line:dirty ratio', 'changed', 'added the line after line 1'],
      ]);
      expect(fs.readFileSync(t.conf, 'utf8')).to.equal('# tuning\nvm.dirty_ratio = 5\nkernel.x = 1\nvm.swappiness = 10\n');
      expect(fs.statSync(t.conf).mode & 0o777, 'the lines kept the mode the file resource set').to.equal(0o640);
      const settled = snapshot(t.etc);

      const second = await t.run('--runner-mode', mode);
      expect(second.code, second.stderr).to.equal(0);
      expect(second.report!.summary).to.include({ resources: 3, changed: 0, unchanged: 3, failed: 0 });
      expect(snapshot(t.etc)).to.deep.equal(settled);
    });
  }

  it('bad lines are refused with every problem, at their lines, before anything is applied', async () => {
    const t = stateTree(`
line "bad" {
  path         = "relative/path"
  line         = "a\\nb"
  match        = "(unclosed"
  insert_after = "["
  ensure       = "absent"
}

line "notified" {
  path   = "/tmp/x"
  line   = "x"
  notify = ["line:swappiness:reload"]
}
`);
    const before = snapshot(t.etc);
    const r = await t.run();
    expect(r.code).to.equal(1);
    const file = path.join(t.states, 'lines.hcl');
    // insert_after only matters when the line is present: with ensure = "absent" it is left out (docs/runners.md).
    expect(r.stderr.trimEnd().split('\n')).to.deep.equal([
      `govern: ${file}:14: line:bad: path "relative/path" is not a clean absolute path other than "/" (no "." or ".." component, no "//", no trailing "/") (it must start with "/")`,
      `govern: ${file}:15: line:bad: line "a\\nb" is not one line of text (no line break)`,
      `govern: ${file}:16: line:bad: match "(unclosed" is not a regular expression (Unterminated group)`,
      `govern: ${file}:24: line:notified: notify "line:swappiness:reload": line does not accept the signal "reload" (it accepts refresh)`,
    ]);
    expect(snapshot(t.etc), 'nothing applied, the file resource included').to.deep.equal(before);
  });
});
