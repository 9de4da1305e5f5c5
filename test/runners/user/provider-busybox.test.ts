// The busybox user provider against a FAKE of busybox's applets (no busybox with adduser runs on
// Debian: test/runners/accounts/support/fake-busybox.ts pins the fake to busybox's documented
// syntax), in a mount namespace whose /etc is a private overlay, so the machine's accounts never
// change. What is real: the runner, the provider choice from PATH, getent and the account files.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { GOVERN, TEST_VAR_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { AccountsNamespace } from '../accounts/support/fake-busybox.js';
import { sha512Hash } from './support.js';

const USER = `gvbbu${process.pid % 100000}`;
const GROUP = `gvbbg${process.pid % 100000}`;
const OTHER = `gvbbo${process.pid % 100000}`;

describe('user runner, busybox provider (FAKE busybox applets, private /etc)', function () {
  this.timeout(120_000);
  let ns: AccountsNamespace;

  const runner: AccountsNamespace['runner'] = (...call) => ns.runner(...call);

  before(async function () {
    if (!AccountsNamespace.available()) this.skip();
    ns = new AccountsNamespace();
    for (const g of [GROUP, OTHER]) expect((await runner('group', [g])).code).to.equal(0);
    ns.takeCalls();
  });

  after(() => ns?.remove());

  it('is chosen when useradd is not on PATH, and creates with adduser -D, addgroup and chpasswd -e #once', async () => {
    const home = path.join(ns.dir, 'home', USER);
    const hash = await sha512Hash('secret');
    const args = [USER, 'uid=46123', `group=${GROUP}`, `groups=${OTHER}`, `home=${home}`, 'shell=/bin/sh', 'comment=Busy Box', 'managehome=true', `password=${hash}`];
    const r = await runner('user', args);
    expect(r.code, r.stderr).to.equal(0);
    expect(r).to.deep.include({ changed: true });
    expect(ns.takeCalls()).to.deep.equal([
      `adduser [-D] [-u] [46123] [-G] [${GROUP}] [-h] [${home}] [-s] [/bin/sh] [-g] [Busy Box] [${USER}]`,
      `addgroup [${USER}] [${OTHER}]`,
      'chpasswd [-e]',
    ]);
    expect(await ns.entry('passwd', USER)).to.deep.equal([USER, 'x', '46123', (await ns.entry('group', GROUP))![2], 'Busy Box', home, '/bin/sh']);
    expect((await ns.entry('group', OTHER))![3]).to.equal(USER);
    expect((await ns.entry('shadow', USER))![1]).to.equal(hash);
    expect(fs.statSync(home).isDirectory()).to.equal(true);
    expect((await runner('user', args)).changed).to.equal(false);
    expect(ns.takeCalls()).to.deep.equal([]);
  });

  it('supplementary groups: addgroup USER GROUP and delgroup USER GROUP #once', async () => {
    const r = await runner('user', [USER, `groups=${GROUP}`]);
    expect(r.code, r.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`addgroup [${USER}] [${GROUP}]`, `delgroup [${USER}] [${OTHER}]`]);
    expect((await ns.entry('group', OTHER))![3]).to.equal('');
    expect((await ns.entry('group', GROUP))![3]).to.equal(USER);
  });

  it('what only usermod could change is refused before anything is done, in noop too #once', async () => {
    for (const noop of [{}, { GOVERN_NOOP: '1' }]) {
      const r = await runner('user', [USER, 'shell=/bin/bash', `groups=${OTHER}`], noop);
      expect(r.code).to.equal(1);
      expect(r.message).to.include('busybox cannot change the shell of an existing user (it has no usermod');
    }
    expect(ns.takeCalls()).to.deep.equal([]);
    expect((await ns.entry('passwd', USER))![6]).to.equal('/bin/sh');
  });

  it('provider = "shadow" is refused by name when useradd is not on PATH #once', async () => {
    const r = await runner('user', [USER, 'shell=/bin/bash', 'provider=shadow']);
    expect(r.code).to.equal(1);
    expect(r.message).to.match(/the shadow provider \(provider = "shadow"\) needs useradd, usermod and userdel, which are not on PATH/);
  });

  it('absent with managehome: deluser --remove-home #once', async () => {
    const home = (await ns.entry('passwd', USER))![5];
    const r = await runner('user', [USER, 'ensure=absent', 'managehome=true']);
    expect(r.code, r.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`deluser [--remove-home] [${USER}]`]);
    expect(await ns.entry('passwd', USER)).to.equal(undefined);
    expect(fs.existsSync(home)).to.equal(false);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`through govern run (${mode} runners): a group and its user, then zero changes`, async () => {
      const dir = tempDir('govern-busybox-run-');
      writeFile(
        path.join(dir, 'accounts.hcl'),
        `group "${GROUP}${mode[0]}" {\n  gid = 46200\n}\nuser "${USER}${mode[0]}" {\n  group = "${GROUP}${mode[0]}"\n  system = true\n}\n`,
      );
      const once = async () => {
        const r = await ns.run([GOVERN, 'run', dir, '--json', '--runner-mode', mode], ns.env({ GOVERN_VAR_DIR: TEST_VAR_DIR }));
        expect(r.code, r.stderr + r.stdout).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      expect((await once()).summary).to.include({ changed: 2 });
      expect(ns.takeCalls()).to.deep.equal([`addgroup [-g] [46200] [${GROUP}${mode[0]}]`, `adduser [-D] [-G] [${GROUP}${mode[0]}] [-H] [-S] [${USER}${mode[0]}]`]);
      expect((await ns.entry('passwd', `${USER}${mode[0]}`))![6]).to.equal('/bin/false'); // busybox's shell for a system user
      expect((await once()).summary).to.include({ changed: 0, unchanged: 2 });
      writeFile(path.join(dir, 'accounts.hcl'), `user "${USER}${mode[0]}" {\n  ensure = "absent"\n}\ngroup "${GROUP}${mode[0]}" {\n  ensure = "absent"\n  after = ["user:${USER}${mode[0]}"]\n}\n`);
      expect((await once()).summary).to.include({ changed: 2 });
      expect(ns.takeCalls()).to.deep.equal([`deluser [${USER}${mode[0]}]`, `delgroup [${GROUP}${mode[0]}]`]);
    });
  }
});
