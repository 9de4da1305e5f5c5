// The pw user provider (FreeBSD) against a FAKE pw (test/runners/accounts/support/fake-pw.ts pins
// the fake to pw(8)'s syntax), in a mount namespace whose /etc is a private overlay, so the machine's
// accounts never change. What is real: the runner, the provider choice from PATH, getent and the
// account files; what is not: pw itself (and FreeBSD's master.passwd, which the fake's usershow
// builds from getent).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { CALL_ENV, parseResult } from '../../../src/shared/protocol.js';
import { GOVERN, RUNNERS_DIR, TEST_VAR_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { AccountsNamespace } from '../accounts/support/fake-busybox.js';
import { sha512Hash } from './support.js';

const USER = `gvpwu${process.pid % 100000}`;
const GROUP = `gvpwg${process.pid % 100000}`;
const OTHER = `gvpwo${process.pid % 100000}`;

describe('user runner, pw provider (FAKE FreeBSD pw, private /etc)', function () {
  this.timeout(120_000);
  let ns: AccountsNamespace;

  async function runner(name: 'user' | 'group', args: string[], extra: NodeJS.ProcessEnv = {}) {
    const env = ns.env(extra);
    for (const key of CALL_ENV) if (extra[key] === undefined) delete env[key];
    const r = await ns.run([path.join(RUNNERS_DIR, name), ...args], env);
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
  }

  before(async function () {
    if (!AccountsNamespace.available()) this.skip();
    ns = new AccountsNamespace('pw');
    for (const g of [GROUP, OTHER]) expect((await runner('group', [g, 'gid=' + (g === GROUP ? 46401 : 46402)])).code).to.equal(0);
    ns.takeCalls();
  });

  after(() => ns?.remove());

  it('is chosen when pw is the only tool on PATH: pw useradd NAME with its options, the hash through pw usermod -H 0 on stdin #once', async () => {
    const home = path.join(ns.dir, 'home', USER);
    const hash = await sha512Hash('secret');
    const args = [USER, 'uid=46411', `group=${GROUP}`, `groups=${OTHER}`, `home=${home}`, 'shell=/bin/sh', 'comment=Pee Double', 'managehome=true', `password=${hash}`];
    const r = await runner('user', args);
    expect(r.code, r.stderr).to.equal(0);
    expect(r).to.deep.include({ changed: true });
    expect(ns.takeCalls()).to.deep.equal([
      `pw [useradd] [${USER}] [-u] [46411] [-g] [${GROUP}] [-G] [${OTHER}] [-d] [${home}] [-m] [-s] [/bin/sh] [-c] [Pee Double]`,
      `pw [usermod] [${USER}] [-H] [0]`,
      `pw [usershow] [${USER}]`,
    ]);
    expect(await ns.entry('passwd', USER)).to.deep.equal([USER, 'x', '46411', '46401', 'Pee Double', home, '/bin/sh']);
    expect((await ns.entry('shadow', USER))![1]).to.equal(hash);
    expect(fs.statSync(home).isDirectory()).to.equal(true);
    // The hash is read back through pw usershow (FreeBSD has no shadow database for getent).
    expect((await runner('user', args)).changed).to.equal(false);
    expect(ns.takeCalls()).to.deep.equal([`pw [usershow] [${USER}]`]);
  });

  it('changes with one pw usermod NAME; -G is the whole list, so add mode passes the current groups too #once', async () => {
    const r = await runner('user', [USER, 'shell=/bin/bash', 'comment=Changed', `groups=${GROUP}`]);
    expect(r.code, r.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`pw [usermod] [${USER}] [-G] [${GROUP}] [-s] [/bin/bash] [-c] [Changed]`]);
    const add = await runner('user', [USER, `groups=${OTHER}`, 'groups_mode=add']);
    expect(add.code, add.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`pw [usermod] [${USER}] [-G] [${GROUP},${OTHER}]`]);
    expect((await ns.entry('group', OTHER))![3]).to.equal(USER);
  });

  it('what pw cannot do is refused before anything is done, in noop too: moving a home, a system account without a uid #once', async () => {
    for (const noop of [{}, { GOVERN_NOOP: '1' }]) {
      const r = await runner('user', [USER, `home=${path.join(ns.dir, 'home', 'moved')}`, 'managehome=true'], noop);
      expect(r.code).to.equal(1);
      expect(r.message).to.include('pw usermod does not move a home directory');
    }
    const system = await runner('user', [`${USER}s`, 'system=true']);
    expect(system.code).to.equal(1);
    expect(system.message).to.include('pw has no option for a system account; give its uid');
    expect(ns.takeCalls()).to.deep.equal([]);
  });

  it('absent with managehome: pw userdel NAME -r #once', async () => {
    const home = (await ns.entry('passwd', USER))![5];
    const r = await runner('user', [USER, 'ensure=absent', 'managehome=true']);
    expect(r.code, r.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`pw [userdel] [${USER}] [-r]`]);
    expect(await ns.entry('passwd', USER)).to.equal(undefined);
    expect(fs.existsSync(home)).to.equal(false);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`through govern run (${mode} runners): a group and its user, then zero changes, then both removed`, async () => {
      const [g, u] = [`${GROUP}${mode[0]}`, `${USER}${mode[0]}`];
      const dir = tempDir('govern-pw-run-');
      writeFile(path.join(dir, 'accounts.hcl'), `group "${g}" {\n  gid = 46420\n}\nuser "${u}" {\n  uid   = 46421\n  group = "${g}"\n}\n`);
      const once = async () => {
        const r = await ns.run([GOVERN, 'run', dir, '--json', '--runner-mode', mode], ns.env({ GOVERN_VAR_DIR: TEST_VAR_DIR }));
        expect(r.code, r.stderr + r.stdout).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      expect((await once()).summary).to.include({ changed: 2 });
      expect(ns.takeCalls()).to.deep.equal([`pw [groupadd] [${g}] [-g] [46420]`, `pw [useradd] [${u}] [-u] [46421] [-g] [${g}]`]);
      expect((await ns.entry('passwd', u))!.slice(5)).to.deep.equal([`/home/${u}`, '/bin/sh']); // pw's defaults
      expect((await once()).summary).to.include({ changed: 0, unchanged: 2 });
      writeFile(path.join(dir, 'accounts.hcl'), `user "${u}" {\n  ensure = "absent"\n}\ngroup "${g}" {\n  ensure = "absent"\n  after = ["user:${u}"]\n}\n`);
      expect((await once()).summary).to.include({ changed: 2 });
      expect(ns.takeCalls()).to.deep.equal([`pw [userdel] [${u}]`, `pw [groupdel] [${g}]`]);
    });
  }
});
