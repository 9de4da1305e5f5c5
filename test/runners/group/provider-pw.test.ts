// The pw group provider (FreeBSD) against a FAKE pw (test/runners/accounts/support/fake-pw.ts pins
// the fake to pw(8)'s syntax), in a mount namespace whose /etc is a private overlay, so the
// machine's groups never change. What is real: the runner, the provider choice from PATH, getent
// and the account files; what is not: pw itself.
import { expect } from 'chai';
import path from 'node:path';
import { CALL_ENV, parseResult } from '../../../src/shared/protocol.js';
import { RUNNERS_DIR } from '../../support/cli.js';
import { AccountsNamespace } from '../accounts/support/fake-busybox.js';

const GROUP = `gvpwm${process.pid % 100000}`;
const [ALICE, BOB] = [`gvpwa${process.pid % 100000}`, `gvpwb${process.pid % 100000}`];

describe('group runner, pw provider (FAKE FreeBSD pw, private /etc) #once', function () {
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
    for (const [u, uid] of [[ALICE, 46431], [BOB, 46432]] as const) expect((await runner('user', [u, `uid=${uid}`])).code).to.equal(0);
    ns.takeCalls();
  });

  after(() => ns?.remove());

  it('creates with pw groupadd NAME -g GID -M MEMBERS (a system group needs its gid)', async () => {
    const system = await runner('group', [`${GROUP}s`, 'system=true']);
    expect(system.code).to.equal(1);
    expect(system.message).to.include('pw has no option for a system group; give its gid');
    const r = await runner('group', [GROUP, 'gid=46440', 'system=true', `members=${ALICE}`]);
    expect(r.code, r.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`pw [groupadd] [${GROUP}] [-g] [46440] [-M] [${ALICE}]`]);
    expect(await ns.entry('group', GROUP)).to.deep.equal([GROUP, 'x', '46440', ALICE]);
  });

  it('members, exactly, and a new gid: one pw groupmod NAME -g GID -M MEMBERS; add mode passes the whole list', async () => {
    expect((await runner('group', [GROUP, 'gid=46441', `members=${BOB}`])).code).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`pw [groupmod] [${GROUP}] [-g] [46441] [-M] [${BOB}]`]);
    expect((await runner('group', [GROUP, `members=${ALICE}`, 'members_mode=add'])).code).to.equal(0);
    expect(ns.takeCalls()).to.have.lengthOf(1);
    expect((await ns.entry('group', GROUP))![3].split(',').sort()).to.deep.equal([ALICE, BOB].sort());
  });

  it('no members left: pw groupmod NAME -d with those there are', async () => {
    expect((await runner('group', [GROUP, 'members_mode=exact'])).code).to.equal(0); // the mode key alone: an empty list
    const calls = ns.takeCalls();
    expect(calls).to.have.lengthOf(1);
    expect(calls[0]).to.match(new RegExp(`^pw \\[groupmod\\] \\[${GROUP}\\] \\[-d\\] \\[(${ALICE},${BOB}|${BOB},${ALICE})\\]$`));
    expect((await ns.entry('group', GROUP))![3]).to.equal('');
  });

  it('absent: pw groupdel NAME', async () => {
    expect((await runner('group', [GROUP, 'ensure=absent'])).code).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`pw [groupdel] [${GROUP}]`]);
    expect(await ns.entry('group', GROUP)).to.equal(undefined);
  });
});
