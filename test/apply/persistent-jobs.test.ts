// --jobs N in persistent mode: a request goes to a free runner process, never behind a busy one,
// so independent resources run as soon as a job is free, as they would in one-shot mode.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('persistent runners with --jobs 2', function () {
  this.timeout(60_000);

  it('sends independent resources to the free process while another works on a slow command', async () => {
    // The command ends only once the last file exists: a file queued behind it would wait for its
    // time limit, and the command would fail.
    const dir = tempDir();
    const files = Array.from({ length: 10 }, (_, i) => path.join(dir, 'out', `f${i + 1}`));
    fs.mkdirSync(path.join(dir, 'out'));
    const wait = `while [ ! -e ${files[files.length - 1]} ]; do sleep 0.05; done`;
    writeFile(path.join(dir, 'states', 'a.hcl'), `exec "slow" {\n  command = ${JSON.stringify(wait)}\n  provider = "shell"\n  timeout = "15s"\n}\n`);
    writeFile(path.join(dir, 'states', 'b.hcl'), files.map((f) => `file ${JSON.stringify(f)} {\n  ensure = "present"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n  contents = "x\\n"\n}\n`).join(''));
    const r = await govern(['run', path.join(dir, 'states'), '--runners-dir', RUNNERS_DIR, '--json', '--runner-mode', 'persistent', '--jobs', '2']);
    const report = JSON.parse(r.stdout) as RunReport;
    expect(report.resources.filter((x) => x.status !== 'changed').map((x) => `${x.ref}: ${x.message}`)).to.deep.equal([]);
    expect(report.summary.changed).to.equal(11);
    expect(r.code, r.stderr).to.equal(0);
  });
});
