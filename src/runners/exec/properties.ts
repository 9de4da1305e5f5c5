// The exec resource's arguments, read into typed and validated properties. Nothing here touches
// the system: whether `cwd` exists is checked by the runner, just before a command would run.
import path from 'node:path';
import { parseDuration } from '../../shared/duration.js';
import type { Params } from '../../shared/protocol.js';
import { describeChar, ValidationError } from '../../shared/validate.js';

export const PROVIDERS = ['posix', 'shell'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const LOGOUTPUT = ['true', 'false', 'on_failure'] as const;
export type LogOutput = (typeof LOGOUTPUT)[number];

/** Puppet's default: a command that runs longer than this is killed. */
export const DEFAULT_TIMEOUT = '300s';

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
}

const KNOWN = [
  'command', 'provider', 'cwd', 'environment', 'path', 'returns', 'timeout',
  'creates', 'refresh_only', 'logoutput', 'unless', 'onlyif',
];

export function parseProperties(name: string, params: Params): ExecProperties {
  // A misspelt guard (`unles`, `refreshonly`) would silently make the command run every time.
  for (const key of params.keys()) {
    if (!KNOWN.includes(key)) throw new ValidationError(`unknown property "${key}" (exec takes ${KNOWN.join(', ')})`);
  }
  const command = params.get('command') ?? name;
  if (command.trim() === '') throw new ValidationError('the command is empty');
  const environment = parseEnvironment(params.list('environment'));
  const searchPath = params.has('path') ? parsePath(params.get('path') as string) : undefined;
  if (searchPath && environment.some(([key]) => key === 'PATH')) {
    throw new ValidationError('PATH is set both by `path` and in `environment`: set it with `path` only');
  }
  return {
    command,
    provider: oneOf('provider', params.get('provider') ?? 'posix', PROVIDERS),
    cwd: optionalAbsolute('cwd', params.get('cwd')),
    environment,
    path: searchPath,
    returns: parseReturns(params.list('returns')),
    timeoutMs: parseTimeout(params.get('timeout') ?? DEFAULT_TIMEOUT),
    creates: optionalAbsolute('creates', params.get('creates')),
    refreshOnly: params.bool('refresh_only', false),
    logoutput: oneOf('logoutput', params.get('logoutput') ?? 'on_failure', LOGOUTPUT),
    unless: guardCommands('unless', params.list('unless')),
    onlyif: guardCommands('onlyif', params.list('onlyif')),
  };
}

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ValidationError(`${key} must be one of ${allowed.join(', ')}, not "${value}"`);
  }
  return value as T;
}

function optionalAbsolute(key: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!path.isAbsolute(value)) throw new ValidationError(`${key} must be an absolute path, not "${value}"`);
  return value;
}

function parseEnvironment(entries: string[]): [string, string][] {
  const seen = new Set<string>();
  return entries.map((entry) => {
    const eq = entry.indexOf('=');
    if (eq < 0) throw new ValidationError(`environment entry "${entry}" is not KEY=value`);
    const key = entry.slice(0, eq);
    if (key === '') throw new ValidationError(`environment entry "${entry}" has an empty name`);
    for (const [i, ch] of [...key].entries()) {
      const ok = /[A-Za-z_]/.test(ch) || (i > 0 && /[0-9]/.test(ch));
      if (!ok) {
        throw new ValidationError(`invalid environment name "${key}": character ${describeChar(ch)} is not allowed (letters, digits and _, not starting with a digit)`);
      }
    }
    if (seen.has(key)) throw new ValidationError(`environment sets ${key} twice`);
    seen.add(key);
    return [key, entry.slice(eq + 1)];
  });
}

function parsePath(value: string): string[] {
  const dirs = value.split(':');
  for (const dir of dirs) {
    // An empty entry means the current directory to a shell: never what a state file wants.
    if (!path.isAbsolute(dir)) {
      throw new ValidationError(`path entries must be absolute directories: ${dir === '' ? 'an empty entry' : `"${dir}"`} in "${value}" is not`);
    }
  }
  return dirs;
}

function parseReturns(values: string[]): number[] {
  if (values.length === 0) return [0];
  return values.map((value) => {
    if (!/^\d{1,3}$/.test(value) || Number(value) > 255) {
      throw new ValidationError(`returns must list exit codes from 0 to 255, not "${value}"`);
    }
    return Number(value);
  });
}

function parseTimeout(value: string): number {
  try {
    return parseDuration(value);
  } catch (e) {
    throw new ValidationError(`timeout: ${(e as Error).message}`);
  }
}

function guardCommands(key: string, commands: string[]): string[] {
  for (const command of commands) {
    if (command.trim() === '') throw new ValidationError(`${key} has an empty command`);
  }
  return commands;
}
