import { expect } from 'chai';
import { DEFAULT_REMOTE_COMMAND, DEFAULT_SSH, remoteCommandLine, splitCommandLine, sshArgv } from '../../../src/facts/remote/command-line.js';

describe('the ssh command line #once', () => {
  it('splits a command as a shell splits words, honouring quotes and backslashes', () => {
    expect(splitCommandLine('ssh -F /etc/govern/ssh_config', '--ssh')).to.deep.equal(['ssh', '-F', '/etc/govern/ssh_config']);
    expect(splitCommandLine(`ssh -o 'ProxyJump=bastion one' -i "/k/my key" a\\ b`, '--ssh')).to.deep.equal(['ssh', '-o', 'ProxyJump=bastion one', '-i', '/k/my key', 'a b']);
    expect(splitCommandLine(`sudo '$HOME'/bin/govern facts --json`, 'x')).to.deep.equal(['sudo', '$HOME/bin/govern', 'facts', '--json']);
  });

  it('refuses operators, globs, comments, variables and an empty command, naming the setting', () => {
    expect(() => splitCommandLine('govern facts --json; reboot', '--remote-command')).to.throw(/--remote-command: ";" is shell syntax/);
    expect(() => splitCommandLine('ssh | tee', 'GOVERN_SSH')).to.throw(/GOVERN_SSH: "\|" is shell syntax/);
    expect(() => splitCommandLine('govern facts > /tmp/x', 'x')).to.throw(/">" is shell syntax/);
    expect(() => splitCommandLine('govern $(id)', 'x')).to.throw(/"\(" is shell syntax/);
    expect(() => splitCommandLine('govern "${X}"', 'x')).to.throw(/"\$X" would not be expanded/);
    expect(() => splitCommandLine('ls *', 'x')).to.throw(/"\*" is shell syntax/);
    expect(() => splitCommandLine('ssh # note', 'x')).to.throw(/"# note" is shell syntax/);
    expect(() => splitCommandLine('ssh -F $HOME/cfg', 'GOVERN_SSH')).to.throw(/GOVERN_SSH: "\$HOME" would not be expanded/);
    expect(() => splitCommandLine('  ', '--ssh')).to.throw(/--ssh is empty/);
  });

  it('builds the default invocation: BatchMode, a connect timeout, no -F, one remote command line', () => {
    const argv = sshArgv({ ssh: DEFAULT_SSH, remoteCommand: DEFAULT_REMOTE_COMMAND, connectTimeoutMs: 10_000 }, 'alpha', ['os/name', 'network/primary/ip']);
    expect(argv).to.deep.equal(['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=10', '--', 'alpha', 'govern facts --json os/name network/primary/ip']);
  });

  it('keeps the user\'s ssh options first (OpenSSH keeps the first value of an option) and rounds the timeout up to seconds', () => {
    const argv = sshArgv({ ssh: ['/usr/bin/ssh', '-F', '/cfg', '-o', 'ConnectTimeout=3'], remoteCommand: ['/opt/govern'], connectTimeoutMs: 1_500 }, 'b', []);
    expect(argv).to.deep.equal(['/usr/bin/ssh', '-F', '/cfg', '-o', 'ConnectTimeout=3', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=2', '--', 'b', '/opt/govern']);
  });

  it('quotes every word of the remote command for the remote shell', () => {
    expect(remoteCommandLine(['GOVERN_FACTS_PATH=/srv/facts', '/opt/my govern/bin/govern', 'facts', '--json'], ['os/name'])).to.equal(
      `GOVERN_FACTS_PATH=/srv/facts '/opt/my govern/bin/govern' facts --json os/name`,
    );
    expect(remoteCommandLine(['printf', '{"a":1}', '$HOME', 'it\'s'], [])).to.equal(`printf '{"a":1}' \\$HOME "it's"`);
  });
});
