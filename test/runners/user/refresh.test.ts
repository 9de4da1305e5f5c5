// The user and group runners answer `refresh` as every built-in runner does (docs/runners.md,
// "Notification mode"), in both runner modes: nothing to do and nothing changed, even for an account
// that does not exist; another signal is refused. And through `govern run`, a user and a group that
// subscribe to a changed file are notified without failing the run.
import { expect } from 'chai';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { accountChecksums, entry, removeAccounts, runState } from './support.js';
import { hostExclusive } from '../../support/host-lock.js';

const USER = 'govtest17-refresh';
const GROUP = 'govtest17-refreshg';

describe('user and group runners: the refresh signal', function () {
  hostExclusive();
  this.timeout(120_000);
  const cleanup = () => removeAccounts([USER], [USER, GROUP]);
  before(cleanup);
  after(cleanup);

  for (const mode of MODES) {
    it(`refresh does nothing, for an account that exists or not; another signal is refused (${mode}) #once`, async () => {
      const before = accountChecksums();
      for (const [runner, name] of [['user', USER], ['group', GROUP], ['user', 'root'], ['group', 'root']]) {
        const answer = await callRunner(runner, mode, name, [], { GOVERN_SIGNAL: 'refresh' });
        expect(answer, `${runner} ${name}`).to.include({ ok: true, changed: false, message: `refresh: nothing to do for a ${runner}` });
        const other = await callRunner(runner, mode, name, [], { GOVERN_SIGNAL: 'restart' });
        expect(other.ok, `${runner} ${name} restart`).to.equal(false);
        expect(other.message).to.contain('restart');
      }
      expect(accountChecksums()).to.deep.equal(before);
      expect(await entry('passwd', USER)).to.equal(undefined);
      expect(await entry('group', GROUP)).to.equal(undefined);
    });
  }

  it('govern run: a user and a group subscribed to a file that changed are refreshed, and the run succeeds', async () => {
    const file = path.join(tempDir('govtest17-refresh-'), 'marker');
    const hcl = `file "${file}" {
  ensure   = "present"
  contents = "x\\n"
  owner    = "root"
  group    = "root"
  mode     = "0644"
}

group "${GROUP}" {
  subscribe = ["file:${file}"]
}

user "${USER}" {
  group     = "${GROUP}"
  subscribe = ["file:${file}"]
}
`;
    const first = await runState(hcl);
    expect(first.code, first.stderr).to.equal(0);
    const notified = first.report.notifications.map((n) => ({ to: n.to, signal: n.signal, status: n.status, message: n.message }));
    expect(notified).to.deep.include({ to: `group:${GROUP}`, signal: 'refresh', status: 'sent', message: 'refresh: nothing to do for a group' });
    expect(notified).to.deep.include({ to: `user:${USER}`, signal: 'refresh', status: 'sent', message: 'refresh: nothing to do for a user' });
    expect(await entry('passwd', USER)).to.not.equal(undefined);
  });
});
