import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('make install', () => {
  it('installs the layout of DESIGN.md under DESTDIR, and the installed govern works from there', async () => {
    const dest = tempDir();
    // -o build: the suite runs from dist/, which is built already; do not rewrite it under the tests' feet.
    const make = await runCommand('make', ['-C', ROOT, '-o', 'build', 'install', 'PREFIX=/usr/local', `DESTDIR=${dest}`], { timeoutMs: 600_000 });
    expect(make.code, make.stderr).to.equal(0);
    const prefix = path.join(dest, 'usr/local');
    for (const p of ['bin/govern', 'lib/govern/bin/file', 'lib/govern/bin/pkg', 'lib/govern/bin/service', 'lib/govern/bin/exec',
      'lib/govern/facts.d/os/name', 'etc/govern/facts.d', 'etc/govern/runners.d', 'etc/govern/templates.d/motd']) {
      expect(fs.existsSync(path.join(prefix, p)), p).to.equal(true);
    }
    expect(fs.existsSync(path.join(prefix, 'lib/govern/node_modules/handlebars'))).to.equal(true);
    expect(fs.existsSync(path.join(prefix, 'lib/govern/node_modules/typescript')), 'dev dependencies are not installed').to.equal(false);

    const govern = path.join(prefix, 'bin/govern');
    // The installed govern finds its shipped facts, and the user's facts (PREFIX/etc) override them.
    writeFile(path.join(prefix, 'etc/govern/facts.d/os/name'), 'My Awesome OS\n');
    const facts = await runCommand(govern, ['facts', 'os/name', 'os/family']);
    expect(facts.stdout).to.equal('os/family\tdebian\nos/name\tMy Awesome OS\n');

    const work = tempDir();
    const state = writeFile(path.join(work, 'a.hcl'), `file "${work}/out" {\n  ensure = "present"\n  contents = "{{fact "os/name"}}"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    const run = await runCommand(govern, ['run', state, '--no-cache', '--var-dir', path.join(work, 'var')]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(work, 'out'), 'utf8')).to.equal('My Awesome OS');
  });
});
