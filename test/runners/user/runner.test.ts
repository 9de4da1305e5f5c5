// runners/user and runners/group called by hand against the real shadow-utils: the decision rows the
// state-tree test does not reach (groups_mode add, home moved, primary group, a group of the user's
// name, missing groups, gid and member changes), each checked in the account databases.
import { expect } from 'chai';
import fs from 'node:fs';
import { runnerOutcome } from '../../support/cli.js';
import { accountChecksums, entry, removeAccounts } from './support.js';
import { hostExclusive } from '../../support/host-lock.js';

const USER = 'govtest17-hand';
const G1 = 'govtest17-g1';
const G2 = 'govtest17-g2';
const user = (args: string[], env: NodeJS.ProcessEnv = {}) => runnerOutcome('user', [USER, ...args], { env });
const group = (name: string, args: string[], env: NodeJS.ProcessEnv = {}) => runnerOutcome('group', [name, ...args], { env });

describe('user and group runners by hand #once', function () {
  hostExclusive();
  this.timeout(120_000);
  const cleanup = async () => {
    await removeAccounts([USER], [USER, G1, G2]);
    fs.rmSync('/home/govtest17-moved', { recursive: true, force: true });
  };
  before(cleanup);
  afterEach(cleanup);

  it('user: a group of its own name is joined, groups_mode add keeps other groups, home moves, primary group changes', async () => {
    expect((await group(USER, [])).message).to.equal(`created group ${USER}`);
    expect((await group(G1, ['gid=61753'])).message).to.equal(`created group ${G1} (gid 61753)`);
    expect((await group(G2, [])).changed).to.equal(true);
    const created = await user(['groups=' + G1, 'managehome=true', 'shell=/bin/sh']);
    expect(created, created.stderr).to.include({ code: 0, message: `created user ${USER} (group ${USER}, groups ${G1}, home created)` });
    const [, , , gid] = (await entry('passwd', USER))!;
    expect(gid).to.equal((await entry('group', USER))![2]);

    expect((await user(['groups=' + G2, 'groups_mode=add'])).message).to.equal(`changed groups +${G2}`);
    expect((await entry('group', G1))![3]).to.equal(USER);
    expect((await entry('group', G2))![3]).to.equal(USER);
    expect((await user(['groups=' + G2, 'groups_mode=add'])).changed).to.equal(false);
    expect((await user(['groups_mode=exact'])).message).to.equal(`changed groups -${G1} -${G2}`);
    expect((await entry('group', G1))![3]).to.equal('');

    fs.writeFileSync(`/home/${USER}/kept`, 'x');
    expect((await user(['home=/home/govtest17-moved', 'managehome=true'])).message).to.equal(`changed home /home/${USER} -> /home/govtest17-moved (moved)`);
    expect(fs.readFileSync('/home/govtest17-moved/kept', 'utf8')).to.equal('x');
    expect((await user(['home=/home/' + USER, 'managehome=true'])).changed).to.equal(true);

    const primary = await user([`group=${G1}`]);
    expect(primary.message).to.equal(`changed group ${USER} -> ${G1} (files outside /home/${USER} still owned by group ${USER} were not changed)`);
    expect((await entry('passwd', USER))![3]).to.equal('61753');
    expect((await user(['group=61753'])).changed).to.equal(false);
  });

  it('user: missing groups fail the resource (a warning in noop mode); a shell outside /etc/shells is a warning', async () => {
    const before = accountChecksums();
    const missing = await user([`group=${G1}`, `groups=${G2}`]);
    expect(missing).to.include({ code: 1, message: `unknown group ${G1}, ${G2} (getent group found no entry)` });
    const noop = await user([`group=${G1}`], { GOVERN_NOOP: '1' });
    expect(noop).to.include({ code: 0, changed: true, message: `Would have created user ${USER} (group ${G1})` });
    expect(noop.stderr).to.include(`warning: unknown group ${G1}`);
    expect(accountChecksums()).to.deep.equal(before);
    const odd = await user(['shell=/usr/local/bin/govtest17-shell']);
    expect(odd.code).to.equal(0);
    expect(odd.message).to.match(/\(warning: shell \/usr\/local\/bin\/govtest17-shell is not listed in \/etc\/shells\)$/);
  });

  it('group: gid changes, members exact and add, emptied with members_mode, unknown members refused', async () => {
    await group(G1, ['gid=61754']);
    expect((await user(['group=' + G1])).code).to.equal(0);
    const gid = await group(G1, ['gid=61755']);
    expect(gid.message).to.equal(`changed gid 61754 -> 61755 (files still owned by gid 61754 were not changed)`);
    expect((await entry('passwd', USER))![3], 'groupmod moves its users').to.equal('61755');
    expect((await group(G2, [`members=${USER}`])).message).to.equal(`created group ${G2} (members ${USER})`);
    expect((await entry('group', G2))![3]).to.equal(USER);
    expect((await group(G2, [`members=${USER}`])).changed).to.equal(false);
    expect((await group(G2, ['members=root', 'members_mode=add'])).message).to.equal('changed members +root');
    expect((await entry('group', G2))![3]).to.equal(`${USER},root`);
    expect((await group(G2, ['members=root'])).message).to.equal(`changed members -${USER}`);
    expect((await group(G2, ['members_mode=exact'])).message).to.equal('changed members -root');
    expect((await entry('group', G2))![3]).to.equal('');
    const before = accountChecksums();
    expect(await group(G2, ['members=govtest17-nobody'])).to.include({ code: 1, message: 'member govtest17-nobody: no such user (getent passwd found no entry)' });
    expect(accountChecksums()).to.deep.equal(before);
  });
});
