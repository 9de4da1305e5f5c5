// `make install`: the layout of README's "Paths" under a prefix, and the installed govern working
// from there with its defaults following that prefix.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { ROOT } from '../support/cli.js';
import { installToTempPrefix, type TempInstall } from '../support/install.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('make install', () => {
  let installed: TempInstall;
  before(async () => {
    installed = await installToTempPrefix();
  });
  after(() => installed.remove());

  it('installs the code, runners, facts, templates, man page and completion under PREFIX', () => {
    const { prefix } = installed;
    for (const p of ['bin/govern', 'lib/govern/bin/file', 'lib/govern/bin/pkg', 'lib/govern/bin/service', 'lib/govern/bin/exec',
      'lib/govern/facts.d/os/name', 'etc/govern/facts.d', 'etc/govern/runners.d', 'etc/govern/templates.d/motd',
      'share/man/man1/govern.1', 'share/bash-completion/completions/govern', 'share/doc/govern/README.md', 'share/doc/govern/docs/runners.md',
      'share/govern/monitoring/govern-rules.yml', 'share/govern/monitoring/govern-dashboard.json']) {
      expect(fs.existsSync(path.join(prefix, p)), p).to.equal(true);
    }
    expect(fs.existsSync(path.join(prefix, 'lib/govern/node_modules/handlebars'))).to.equal(true);
    expect(fs.existsSync(path.join(prefix, 'lib/govern/node_modules/typescript')), 'dev dependencies are not installed').to.equal(false);
    expect(fs.existsSync(path.join(prefix, 'lib/govern/node_modules/uglify-js')), 'optional dependencies are not installed').to.equal(false);
    const man = fs.readFileSync(path.join(prefix, 'share/man/man1/govern.1'), 'utf8');
    expect(man, 'the FILES section names this prefix').to.contain(`${prefix}/etc/govern/facts.d`.replace(/-/g, '\\-'));
  });

  it('the installed govern takes the user\'s facts from PREFIX/etc over the shipped ones, and applies a tree', async () => {
    const govern = path.join(installed.prefix, 'bin/govern');
    writeFile(path.join(installed.prefix, 'etc/govern/facts.d/os/name'), 'My Awesome OS\n');
    const facts = await runCommand(govern, ['facts', 'os/name', 'os/family']);
    expect(facts.stdout).to.equal('os/family\tdebian\nos/name\tMy Awesome OS\n');

    const work = tempDir();
    const state = writeFile(path.join(work, 'a.hcl'), `file "${work}/out" {\n  ensure = "present"\n  contents = "{{fact "os/name"}}"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    const run = await runCommand(govern, ['run', state, '--no-cache', '--var-dir', path.join(work, 'var')]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(work, 'out'), 'utf8')).to.equal('My Awesome OS');

    // A user's runner made with the runner kit finds the installed one as govern/runner, and is checked.
    writeFile(path.join(installed.prefix, 'etc/govern/runners.d/hello'), `#!/usr/bin/env node
require('govern/runner').runnerMain({ description: { keys: { who: { type: 'string', required: true } } }, run: async (r) => ({ changed: false, message: 'hello ' + r.values.who }) });
`, 0o755);
    const hello = writeFile(path.join(work, 'hello.hcl'), 'hello "x" {\n  who = "you"\n}\n');
    const greeted = await runCommand(govern, ['run', hello, '--no-cache', '--json']);
    expect(greeted.code, greeted.stderr).to.equal(0);
    expect(JSON.parse(greeted.stdout).resources[0].message).to.equal('hello you');
    fs.writeFileSync(hello, 'hello "x" {\n  whom = "you"\n}\n');
    const refused = await runCommand(govern, ['run', hello, '--no-cache']);
    expect(refused.stderr).to.contain('unknown key "whom" (did you mean "who"?)');
  });

  it('under DESTDIR, records the final SYSCONFDIR, not the staging directory', async () => {
    const dest = tempDir();
    const make = await runCommand('make', ['-C', ROOT, '-o', 'build', 'install', 'PREFIX=/usr', 'SYSCONFDIR=/etc', `DESTDIR=${dest}`], { timeoutMs: 600_000 });
    expect(make.code, make.stderr).to.equal(0);
    expect(JSON.parse(fs.readFileSync(path.join(dest, 'usr/lib/govern/layout.json'), 'utf8'))).to.deep.equal({ sysconfdir: '/etc' });
    expect(fs.existsSync(path.join(dest, 'etc/govern/templates.d/motd'))).to.equal(true);
  });
});
