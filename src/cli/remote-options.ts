// Options for facts of other hosts (hostfact, `govern facts --host`): each is a flag, else an
// environment variable, else a default.
import { UserError } from '../shared/errors.js';
import { DEFAULT_REMOTE_COMMAND, DEFAULT_SSH, splitCommandLine } from '../facts/remote/command-line.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_HOST_TIMEOUT_MS, DEFAULT_PARALLEL, RemoteFacts } from '../facts/remote/remote-facts.js';
import { parseDuration } from '../shared/duration.js';
import { optionValue, type OptionSpec, type ParsedArgs } from './options.js';

/** The options of one ssh connection (also `govern facts --host`). */
export const sshOptions: OptionSpec[] = [
  { name: 'ssh', value: true, placeholder: 'COMMAND', help: 'ssh program and options for hostfact, e.g. "ssh -F /etc/govern/ssh_config" (env GOVERN_SSH; default ssh)' },
  {
    name: 'remote-command',
    value: true,
    placeholder: 'COMMAND',
    help: `command run on other hosts, fact names appended (env GOVERN_REMOTE_COMMAND; default "${DEFAULT_REMOTE_COMMAND.join(' ')}")`,
  },
  {
    name: 'connect-timeout',
    value: true,
    placeholder: 'DURATION',
    help: `ssh connect timeout per host (env GOVERN_CONNECT_TIMEOUT; default ${DEFAULT_CONNECT_TIMEOUT_MS / 1000}s)`,
  },
  {
    name: 'host-timeout',
    value: true,
    placeholder: 'DURATION',
    help: `time limit of fetching one host's facts (env GOVERN_HOST_TIMEOUT; default ${DEFAULT_HOST_TIMEOUT_MS / 1000}s)`,
  },
];

export const remoteFactOptions: OptionSpec[] = [
  ...sshOptions,
  { name: 'parallel', value: true, placeholder: 'N', help: `fetch facts from up to N hosts at once (env GOVERN_PARALLEL; default ${DEFAULT_PARALLEL})` },
];

interface Setting {
  text: string;
  /** "--ssh" or "GOVERN_SSH", for messages. */
  what: string;
}

function setting(args: ParsedArgs, option: string, envName: string, env: NodeJS.ProcessEnv): Setting | undefined {
  const flag = optionValue(args, option);
  if (flag !== undefined) return { text: flag, what: `--${option}` };
  const fromEnv = env[envName];
  if (fromEnv !== undefined && fromEnv !== '') return { text: fromEnv, what: envName };
  return undefined;
}

function duration(s: Setting | undefined, fallbackMs: number): number {
  if (!s) return fallbackMs;
  let ms: number;
  try {
    ms = parseDuration(s.text);
  } catch (e) {
    throw new UserError(`${s.what}: ${(e as Error).message}`);
  }
  if (ms <= 0) throw new UserError(`${s.what} must be more than 0`);
  return ms;
}

function count(s: Setting | undefined, fallback: number): number {
  if (!s) return fallback;
  if (!/^\d+$/.test(s.text) || Number(s.text) < 1) throw new UserError(`${s.what} must be a positive whole number, not "${s.text}"`);
  return Number(s.text);
}

function command(s: Setting | undefined, fallback: string[]): string[] {
  return s ? splitCommandLine(s.text, s.what) : fallback;
}

/** The remote fact source the options describe; settings are checked now, nothing connects yet. */
export function remoteFacts(args: ParsedArgs, env: NodeJS.ProcessEnv = process.env): RemoteFacts {
  return new RemoteFacts({
    ssh: command(setting(args, 'ssh', 'GOVERN_SSH', env), DEFAULT_SSH),
    remoteCommand: command(setting(args, 'remote-command', 'GOVERN_REMOTE_COMMAND', env), DEFAULT_REMOTE_COMMAND),
    connectTimeoutMs: duration(setting(args, 'connect-timeout', 'GOVERN_CONNECT_TIMEOUT', env), DEFAULT_CONNECT_TIMEOUT_MS),
    hostTimeoutMs: duration(setting(args, 'host-timeout', 'GOVERN_HOST_TIMEOUT', env), DEFAULT_HOST_TIMEOUT_MS),
    parallel: count(setting(args, 'parallel', 'GOVERN_PARALLEL', env), DEFAULT_PARALLEL),
    env,
  });
}
