// Options for facts of other hosts (hostfact, `govern facts --host`), and the fact source they make.
import { DEFAULT_REMOTE_COMMAND, DEFAULT_SSH } from '../facts/remote/command-line.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_HOST_TIMEOUT_MS, DEFAULT_PARALLEL, RemoteFacts } from '../facts/remote/remote-facts.js';
import { optionTable, type Options } from './options.js';

/** The options of one ssh connection (also `govern facts --host`). */
export const sshOptions = optionTable([
  {
    name: 'ssh',
    kind: 'command',
    placeholder: 'COMMAND',
    env: 'GOVERN_SSH',
    default: DEFAULT_SSH.join(' '),
    help: 'ssh program and options for hostfact, e.g. "ssh -F /etc/govern/ssh_config"',
  },
  {
    name: 'remote-command',
    kind: 'command',
    placeholder: 'COMMAND',
    env: 'GOVERN_REMOTE_COMMAND',
    default: DEFAULT_REMOTE_COMMAND.join(' '),
    help: 'command run on other hosts, fact names appended',
  },
  {
    name: 'connect-timeout',
    kind: 'duration',
    placeholder: 'DURATION',
    env: 'GOVERN_CONNECT_TIMEOUT',
    default: `${DEFAULT_CONNECT_TIMEOUT_MS / 1000}s`,
    help: 'ssh connect timeout per host',
  },
  {
    name: 'host-timeout',
    kind: 'duration',
    placeholder: 'DURATION',
    env: 'GOVERN_HOST_TIMEOUT',
    default: `${DEFAULT_HOST_TIMEOUT_MS / 1000}s`,
    help: "time limit of fetching one host's facts",
  },
]);

export const remoteFactOptions = optionTable([
  ...sshOptions,
  { name: 'parallel', kind: 'number', placeholder: 'N', env: 'GOVERN_PARALLEL', default: String(DEFAULT_PARALLEL), help: 'fetch facts from up to N hosts at once' },
]);

/** The remote fact source the options describe (ssh options alone: the default parallelism); nothing connects yet. */
export function remoteFacts(o: Options<typeof sshOptions> & { parallel?: number }, env: NodeJS.ProcessEnv = process.env): RemoteFacts {
  return new RemoteFacts({
    ssh: o.ssh,
    remoteCommand: o.remoteCommand,
    connectTimeoutMs: o.connectTimeout,
    hostTimeoutMs: o.hostTimeout,
    parallel: o.parallel ?? DEFAULT_PARALLEL,
    env,
  });
}
