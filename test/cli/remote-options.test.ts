import { expect } from 'chai';
import { parseCommandLine, resolveOptions } from '../../src/cli/options.js';
import { remoteFactOptions, remoteFacts as fromOptions } from '../../src/cli/remote-options.js';

const parse = (argv: string[]) => parseCommandLine(argv, remoteFactOptions, 'run');
const remoteFacts = (line: ReturnType<typeof parse>, env: NodeJS.ProcessEnv) => fromOptions(resolveOptions(remoteFactOptions, line, env), env);

describe('remote fact options #once', () => {
  it('has defaults: plain ssh (so ~/.ssh/config applies), govern facts --json, 8 hosts at once, 10s to connect, 60s per host', () => {
    expect(remoteFacts(parse([]), {}).options).to.deep.include({
      ssh: ['ssh'],
      remoteCommand: ['govern', 'facts', '--json'],
      parallel: 8,
      connectTimeoutMs: 10_000,
      hostTimeoutMs: 60_000,
    });
  });

  it('reads the environment, and a flag wins over it', () => {
    const env = {
      GOVERN_SSH: 'ssh -F /etc/govern/ssh_config',
      GOVERN_REMOTE_COMMAND: '/usr/local/bin/govern facts --json',
      GOVERN_PARALLEL: '3',
      GOVERN_CONNECT_TIMEOUT: '5s',
      GOVERN_HOST_TIMEOUT: '2m',
    };
    expect(remoteFacts(parse([]), env).options).to.deep.include({
      ssh: ['ssh', '-F', '/etc/govern/ssh_config'],
      remoteCommand: ['/usr/local/bin/govern', 'facts', '--json'],
      parallel: 3,
      connectTimeoutMs: 5_000,
      hostTimeoutMs: 120_000,
    });
    const flags = parse(['--ssh', 'myssh', '--remote-command', 'g facts --json', '--parallel', '2', '--connect-timeout', '1s', '--host-timeout', '30s']);
    expect(remoteFacts(flags, env).options).to.deep.include({ ssh: ['myssh'], remoteCommand: ['g', 'facts', '--json'], parallel: 2, connectTimeoutMs: 1_000, hostTimeoutMs: 30_000 });
  });

  it('refuses bad values, naming the flag or variable', () => {
    expect(() => remoteFacts(parse(['--parallel', '0']), {})).to.throw(/--parallel must be a positive whole number, not "0"/);
    expect(() => remoteFacts(parse([]), { GOVERN_PARALLEL: 'many' })).to.throw(/GOVERN_PARALLEL must be a positive whole number/);
    expect(() => remoteFacts(parse(['--host-timeout', 'soon']), {})).to.throw(/--host-timeout: invalid duration "soon"/);
    expect(() => remoteFacts(parse([]), { GOVERN_CONNECT_TIMEOUT: '0s' })).to.throw(/GOVERN_CONNECT_TIMEOUT must be more than 0/);
    expect(() => remoteFacts(parse([]), { GOVERN_REMOTE_COMMAND: 'govern facts --json && reboot' })).to.throw(/GOVERN_REMOTE_COMMAND: "&&" is shell syntax/);
  });
});
