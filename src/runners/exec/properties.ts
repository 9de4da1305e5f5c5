// The exec runner's properties, from its arguments as the description reads them, with the checks a
// description cannot express. Nothing here touches the system: whether `cwd` exists is checked by
// the runner, just before a command would run.
import { UserError } from '../../shared/errors.js';
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;
export type ProviderName = Described['provider'];
export type LogOutput = Described['logoutput'];

export interface ExecProperties {
  /** The command as written; the resource name when `command` is not set. */
  command: string;
  provider: ProviderName;
  /** Absolute working directory; the runner's own when not set. */
  cwd?: string;
  /** `KEY=value` entries added to the command's environment, in order. */
  environment: [string, string][];
  /** Absolute directories for program lookup, in order; becomes PATH. */
  path?: string[];
  /** Acceptable exit codes. */
  returns: number[];
  /** 0 means no limit. */
  timeoutMs: number;
  /** An absolute file; its existence means the command has already done its work. */
  creates?: string;
  refreshOnly: boolean;
  logoutput: LogOutput;
  /** Read-only checks: the command runs only if every one of them exits non-zero. */
  unless: string[];
  /** Read-only checks: the command runs only if every one of them exits 0. */
  onlyif: string[];
  /** Who runs the command and its checks, and with which umask. */
  user?: string;
  group?: string;
  umask?: number;
  /** How many times to try the command until it succeeds, and the wait between tries. */
  tries: number;
  trySleepMs: number;
}

export function execProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): ExecProperties {
  const v = request.values;
  const command = v.command ?? request.name;
  if (command.trim() === '') throw new UserError('the command is empty');
  const environment = v.environment.map((entry): [string, string] => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]);
  const names = environment.map(([key]) => key);
  const twice = names.find((key, i) => names.indexOf(key) !== i);
  if (twice !== undefined) throw new UserError(`environment sets ${twice} twice`);
  if (v.path !== undefined && names.includes('PATH')) throw new UserError('PATH is set both by `path` and in `environment`: set it with `path` only');
  return {
    command,
    provider: v.provider,
    cwd: v.cwd,
    environment,
    path: v.path?.split(':'),
    returns: v.returns,
    timeoutMs: v.timeout,
    creates: v.creates,
    refreshOnly: v.refresh_only,
    logoutput: v.logoutput,
    unless: v.unless,
    onlyif: v.onlyif,
    user: v.user,
    group: v.group,
    umask: v.umask,
    tries: v.tries,
    trySleepMs: v.try_sleep,
  };
}
