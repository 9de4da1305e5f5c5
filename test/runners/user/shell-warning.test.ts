// The warning about a shell not in /etc/shells: for a login shell only, never for nologin or false
// (not in /etc/shells by design, and the right shell for a service account). Noop: nothing created.
import { expect } from 'chai';
import { parseResult } from '../../../src/shared/protocol.js';
import { runner } from '../../support/cli.js';

const USER = 'govnoopshell';

async function plan(shell: string) {
  const r = await runner('user', [USER, 'system=true', `shell=${shell}`], { env: { GOVERN_NOOP: '1' } });
  return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
}

describe('user runner: the shell warning #once', () => {
  it('says nothing of /usr/sbin/nologin or /bin/false for a system user', async () => {
    for (const shell of ['/usr/sbin/nologin', '/bin/false']) {
      const r = await plan(shell);
      expect(r).to.deep.include({ code: 0, changed: true, message: `Would have created system user ${USER}` });
      expect(r.stderr).to.not.include('/etc/shells');
    }
  });

  it('warns of a login shell missing from /etc/shells', async () => {
    const r = await plan('/usr/local/bin/govern-no-such-shell');
    expect(r.code).to.equal(0);
    expect(r.message).to.include('(warning: shell /usr/local/bin/govern-no-such-shell is not listed in /etc/shells)');
  });
});
