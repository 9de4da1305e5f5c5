// Facts of other hosts, over OpenSSH: one ssh per host asks for every fact that host is wanted for,
// hosts in parallel up to a limit, each with its own time limit. A failure is kept as the result of
// every fact it concerns, so the template that asked reports it with its file, line, host and fact.
import type { FactResult } from '../evaluate.js';
import type { RemoteFactSource } from '../sources.js';
import { runCommand } from '../../shared/process.js';
import { readAnswer, type HostAnswer } from './answer.js';
import { sshArgv, type SshSettings } from './command-line.js';
import { forEachLimited } from './limit.js';
import { checkFactName, checkHost } from './names.js';

export const DEFAULT_PARALLEL = 8;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_HOST_TIMEOUT_MS = 60_000;
/** The most a host's answer may hold (docs/hostfact.md); past it, the ssh is killed and the host fails. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface RemoteFactsOptions extends SshSettings {
  /** Hosts asked at once. */
  parallel: number;
  /** Time limit of one host's ssh, from start to answer. */
  hostTimeoutMs: number;
  /** ssh's environment (SSH_AUTH_SOCK and friends); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export class RemoteFacts implements RemoteFactSource {
  private readonly results = new Map<string, Map<string, FactResult>>();

  constructor(readonly options: RemoteFactsOptions) {}

  peek(host: string, name: string): FactResult | undefined {
    return this.results.get(host)?.get(name);
  }

  /**
   * Asks each host for the facts not known yet. A host asked again in a later render pass (a fact
   * name that came from another fact) gets a second connection for just the new names.
   */
  async load(requests: Map<string, Set<string>>): Promise<void> {
    const work: [string, string[]][] = [];
    for (const [host, names] of requests) {
      const unknown = [...names].filter((name) => this.peek(host, name) === undefined);
      if (unknown.length > 0) work.push([host, unknown]);
    }
    await forEachLimited(work, this.options.parallel, ([host, names]) => this.fetchInto(host, names));
  }

  /** One ssh to the host for the named facts, or for all its facts when names is empty. Names must be valid. */
  async ask(host: string, names: string[]): Promise<HostAnswer> {
    checkHost(host);
    for (const name of names) checkFactName(name);
    const [command, ...args] = sshArgv(this.options, host, names);
    const result = await runCommand(command, args, { env: this.options.env ?? process.env, timeoutMs: this.options.hostTimeoutMs, maxOutputBytes: MAX_ANSWER_BYTES });
    return readAnswer(result, names.length > 0 ? names : 'all', this.options.hostTimeoutMs);
  }

  private async fetchInto(host: string, names: string[]): Promise<void> {
    const known = this.results.get(host) ?? new Map<string, FactResult>();
    this.results.set(host, known);
    const hostProblem = problemOf(() => checkHost(host));
    if (hostProblem !== undefined) {
      for (const name of names) known.set(name, { ok: false, error: hostProblem });
      return;
    }
    const valid: string[] = [];
    for (const name of names) {
      const problem = problemOf(() => checkFactName(name));
      if (problem === undefined) valid.push(name);
      else known.set(name, { ok: false, error: problem });
    }
    if (valid.length === 0) return;
    const answer = await this.ask(host, valid);
    for (const name of valid) known.set(name, factResult(host, answer, name));
  }
}

export function factResult(host: string, answer: HostAnswer, name: string): FactResult {
  if (!answer.reached) return { ok: false, error: `could not get facts from ${host}: ${answer.error}` };
  const value = answer.values.get(name);
  if (value !== undefined) return { ok: true, value };
  return { ok: false, error: `${host} answered: ${answer.failed.get(name) ?? 'not in the answer'}` };
}

function problemOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
