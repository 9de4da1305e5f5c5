// The same intent through Ansible's yum_repository and through dnf_repository: the .repo file's
// options must be the same. Runs only where Ansible is installed (it is not on the test machines,
// nor in scripts/setup-debian: the suite then skips it); Puppet's yumrepo is not compared (no Puppet
// there either). Both write to /etc/yum.repos.d, each a file of a name of the test's own, removed after.
import { expect } from 'chai';
import fs from 'node:fs';
import { runCommand } from '../../../src/shared/process.js';
import { callRunner } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { skipBecause, skipUnlessTools } from '../../support/tools.js';

const NAME = `govern-diff-${process.pid}`;
const OURS = `/etc/yum.repos.d/${NAME}.repo`;
const THEIRS = `/etc/yum.repos.d/${NAME}-ansible.repo`;

/** A .repo file's options, its section name and comments left out. */
function options(text: string): Record<string, string> {
  const read: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\s*=\s*(.*)$/.exec(line);
    if (match && match[1] !== 'name') read[match[1]] = match[2].trim();
  }
  return read;
}

describe('dnf_repository against Ansible\'s yum_repository (differential) #once', function () {
  this.timeout(120_000);

  before(async function () {
    if (process.getuid?.() !== 0) skipBecause(this, 'Ansible writes to /etc/yum.repos.d: root only');
    await skipUnlessTools(this, ['ansible']);
  });

  after(() => {
    for (const file of [OURS, THEIRS]) fs.rmSync(file, { force: true });
  });

  it('writes the options Ansible writes for the same repository', async () => {
    const ours = await callRunner('dnf_repository', 'oneshot', NAME, ['description=govern differential', 'baseurl=https://rpm.example.org/el9', 'gpgkey=https://rpm.example.org/KEY'], {
      GOVERN_RUN_DIR: tempDir('govern-repos-diff-run-'),
    });
    expect(ours.ok, ours.log).to.equal(true);
    const args = { name: `${NAME}-ansible`, file: `${NAME}-ansible`, description: 'govern differential', baseurl: 'https://rpm.example.org/el9', gpgcheck: true, gpgkey: 'https://rpm.example.org/KEY', enabled: true };
    const r = await runCommand('ansible', ['localhost', '-c', 'local', '-m', 'ansible.builtin.yum_repository', '-a', JSON.stringify(args)], { timeoutMs: 100_000 });
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(options(fs.readFileSync(THEIRS, 'utf8'))).to.deep.equal(options(fs.readFileSync(OURS, 'utf8')));
  });
});
