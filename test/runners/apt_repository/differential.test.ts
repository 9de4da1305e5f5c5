// The same intent through Ansible's deb822_repository and through apt_repository: the fields apt
// reads (Types, URIs, Suites, Components, Architectures, Signed-By) must be the same. Runs only where
// an Ansible with deb822_repository is installed (ansible-core 2.15 or newer: Debian 12's is 2.14; it
// is not in scripts/setup-debian: the suite then skips it, saying why); Puppet's apt::source comes with the puppetlabs-apt module, not with Puppet, and is not
// compared. Ansible writes to /etc/apt/sources.list.d itself, so the file has a name of the test's
// own and is removed after.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../../src/shared/process.js';
import { callRunner } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { skipBecause, skipUnlessTools } from '../../support/tools.js';
import { confinedApt } from './signed-repo.js';

const NAME = `govern-diff-${process.pid}`;
const ANSIBLE_FILE = `/etc/apt/sources.list.d/${NAME}.sources`;

/** A deb822 stanza's fields, comments and apt's unused fields left out. */
function fields(text: string): Record<string, string> {
  const read: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^(Types|URIs|Suites|Components|Architectures|Signed-By):\s*(.*)$/.exec(line);
    if (match) read[match[1]] = match[2].trim();
  }
  return read;
}

describe('apt_repository against Ansible\'s deb822_repository (differential) #once', function () {
  this.timeout(120_000);

  before(async function () {
    if (process.getuid?.() !== 0) skipBecause(this, 'Ansible writes to /etc/apt: root only');
    const version = { args: ['--version'], pattern: /\[core (\d+\.\d+(?:\.\d+)?)/, version: '2.15', what: 'brings ansible.builtin.deb822_repository' };
    await skipUnlessTools(this, [{ command: 'ansible', minimum: version }, 'apt-config']);
  });

  after(() => fs.rmSync(ANSIBLE_FILE, { force: true }));

  it('writes the fields Ansible writes for the same repository', async () => {
    const apt = confinedApt();
    const key = '/usr/share/keyrings/debian-archive-keyring.gpg';
    const ours = await callRunner('apt_repository', 'oneshot', NAME, ['uris=https://deb.debian.org/debian', 'suites=bookworm', 'components=main', 'components=contrib', 'architectures=amd64', `signed_by=${key}`], {
      ...apt.env,
      // Inside a run: the apt-get update is left pending, not run (it would fetch Debian's index).
      GOVERN_RUN_DIR: tempDir('govern-repos-diff-run-'),
    });
    expect(ours.ok, ours.log).to.equal(true);
    const written = fs.readFileSync(path.join(apt.sourcesDir, `${NAME}.sources`), 'utf8');
    const keyring = fields(written)['Signed-By'];
    const args = { name: NAME, types: ['deb'], uris: ['https://deb.debian.org/debian'], suites: ['bookworm'], components: ['main', 'contrib'], architectures: ['amd64'], signed_by: keyring };
    const r = await runCommand('ansible', ['localhost', '-c', 'local', '-m', 'ansible.builtin.deb822_repository', '-a', JSON.stringify(args)], { timeoutMs: 100_000 });
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(fields(fs.readFileSync(ANSIBLE_FILE, 'utf8'))).to.deep.equal(fields(written));
  });
});
