// The busybox group provider against a FAKE of busybox's applets (no busybox with addgroup runs on
// Debian: test/runners/accounts/support/fake-busybox.ts pins the fake to busybox's documented
// syntax), in a mount namespace whose /etc is a private overlay, so the machine's groups never
// change. What is real: the runner, the provider choice from PATH, getent and the account files.
import { expect } from 'chai';
import { AccountsNamespace } from '../accounts/support/fake-busybox.js';

const GROUP = `gvbbm${process.pid % 100000}`;
const [ALICE, BOB] = [`gvbba${process.pid % 100000}`, `gvbbb${process.pid % 100000}`];

describe('group runner, busybox provider (FAKE busybox applets, private /etc) #once', function () {
  this.timeout(120_000);
  let ns: AccountsNamespace;

  const runner: AccountsNamespace['runner'] = (...call) => ns.runner(...call);

  before(async function () {
    if (!AccountsNamespace.available()) this.skip();
    ns = new AccountsNamespace();
    for (const u of [ALICE, BOB]) expect((await runner('user', [u])).code).to.equal(0);
    ns.takeCalls();
  });

  after(() => ns?.remove());

  it('creates with addgroup -g GID -S, then one addgroup USER GROUP per member', async () => {
    const r = await runner('group', [GROUP, 'gid=46300', 'system=true', `members=${ALICE}`]);
    expect(r.code, r.stderr).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`addgroup [-g] [46300] [-S] [${GROUP}]`, `addgroup [${ALICE}] [${GROUP}]`]);
    expect(await ns.entry('group', GROUP)).to.deep.equal([GROUP, 'x', '46300', ALICE]);
  });

  it('members, exactly: addgroup for the missing, delgroup USER GROUP for the others; add mode removes none', async () => {
    expect((await runner('group', [GROUP, `members=${BOB}`])).code).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`addgroup [${BOB}] [${GROUP}]`, `delgroup [${ALICE}] [${GROUP}]`]);
    expect((await runner('group', [GROUP, `members=${ALICE}`, 'members_mode=add'])).code).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`addgroup [${ALICE}] [${GROUP}]`]);
    expect((await ns.entry('group', GROUP))![3].split(',').sort()).to.deep.equal([ALICE, BOB].sort());
  });

  it('a new gid is refused before anything is done (busybox has no groupmod), in noop too', async () => {
    for (const noop of [{}, { GOVERN_NOOP: '1' }]) {
      const r = await runner('group', [GROUP, 'gid=46301', `members=${BOB}`], noop);
      expect(r.code).to.equal(1);
      expect(r.message).to.include('busybox cannot change the gid of an existing group (it has no groupmod');
    }
    expect(ns.takeCalls()).to.deep.equal([]);
    expect((await ns.entry('group', GROUP))![2]).to.equal('46300');
  });

  it('absent: delgroup GROUP', async () => {
    expect((await runner('group', [GROUP, 'ensure=absent'])).code).to.equal(0);
    expect(ns.takeCalls()).to.deep.equal([`delgroup [${GROUP}]`]);
    expect(await ns.entry('group', GROUP)).to.equal(undefined);
  });
});
