// The runner kit, public as `govern/runner` (docs/runners.md, "A runner in JavaScript"): a runner
// declares its description once and gets, from the same declaration, the answer to govern's
// GOVERN_DESCRIBE question, its arguments checked and read by their types, signals checked, both
// runner protocols, and errors turned into a message and a non-zero exit. The runner itself is a
// function from a request to a result; it never touches process.argv, process.env or stdout.
import path from 'node:path';
import readline from 'node:readline';
import { checkArguments, refusedSignal } from '../../shared/arguments.js';
import { DESCRIBE_ENV, DESCRIPTION_FORMAT, type DescriptionDocument, type RunnerDescription } from '../../shared/description.js';
import { formatProblem, UserError } from '../../shared/errors.js';
import { PERSISTENT_ENV, type PersistentRequest, type PersistentResponse } from '../../shared/persistent.js';
import { CALL_ENV, decodeArgs, formatResult, oneLine, type AttrValue, type Params, type RunnerResult } from '../../shared/protocol.js';
import { dismissWatcher, guardChildren } from '../../shared/child-guard.js';
import { flushAnswers, sendAnswer } from './answer-writer.js';
import { governGoneCheck } from './govern-gone.js';
import { childrenRunning, KILL_GRACE_MS, killAllChildren, startOnlyUnless } from '../../shared/process.js';
import type { Value } from '../../shared/values.js';

export { UserError } from '../../shared/errors.js';
export type { Autorequire, Condition, KeySpec, NameSpec, Rule, RunnerDescription, ValueSpec, ValueType } from '../../shared/description.js';
export type { RunnerResult } from '../../shared/protocol.js';
export type { Value } from '../../shared/values.js';

type ScalarOf<S> = S extends { type: 'integer' | 'mode' | 'duration' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'enum'; values: readonly (infer W)[] }
      ? W
      : S extends { type: 'map' }
        ? { [key: string]: AttrValue }
        : string;
type ValueOf<S> = S extends { type: 'list' } ? (S extends { items: infer I } ? ScalarOf<I>[] : string[]) : ScalarOf<S>;
type AlwaysThere<S> = S extends { required: true } | { default: unknown } | { type: 'list' } ? true : false;

/** A runner's arguments as their description types them: a key that is neither required nor defaulted may be undefined. */
export type Values<D extends RunnerDescription> = D extends { keys: infer K }
  ? { -readonly [P in keyof K]: AlwaysThere<K[P]> extends true ? ValueOf<K[P]> : ValueOf<K[P]> | undefined }
  : Record<string, Value | undefined>;

export interface RunnerRequest<V = Record<string, Value | undefined>> {
  /** The resource name (the first argument). */
  name: string;
  /** Every described key, read by its type: the value given, else its default, else undefined (a list: []). */
  values: V;
  /** The arguments as they arrived, for what the description does not cover. */
  params: Params;
  /** GOVERN_NOOP=1: report what would change, change nothing. */
  noop: boolean;
  /** GOVERN_NOOP_PENDING: in noop mode, the RREFs of the resources this one comes after that would change. */
  pending: string[];
  /** GOVERN_MANAGED_CHILDREN: for a resource with `purge = true`, the names of its directory's entries the tree manages; undefined when govern did not pass it. */
  managed?: string[];
  /** GOVERN_SIGNAL: notification mode (a signal the description accepts). */
  signal?: string;
  /** GOVERN_STATE_DIR: the directory of the state file that declared the resource. */
  stateDir?: string;
  /** The environment the runner was given, for the commands it runs. */
  env: NodeJS.ProcessEnv;
  /** A log line: kept in govern's report, shown on failure or with --verbose. */
  log(line: string): void;
}

export interface RunnerDefinition<D extends RunnerDescription = RunnerDescription> {
  /** How messages name the runner; its executable's file name when not given. */
  name?: string;
  description: D;
  /** Applies one resource, or, with request.signal, acts on a notification. */
  run(request: RunnerRequest<Values<D>>): Promise<RunnerResult>;
  /**
   * Persistent mode only: called once at start, before the first request, to do ahead what most
   * requests will need (read a database). It must not change anything, and its failure is ignored.
   */
  prepare?(env: NodeJS.ProcessEnv): Promise<void>;
}

/** Checks one call's arguments and signal against the description: a UserError lists every problem. */
export function parseRequest<D extends RunnerDescription>(
  definition: RunnerDefinition<D>,
  argv: string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): RunnerRequest<Values<D>> {
  const { name, params } = decodeArgs(argv);
  const runner = definition.name ?? runnerName();
  const { values, problems } = checkArguments(runner, definition.description, name, params);
  const signal = env.GOVERN_SIGNAL ? env.GOVERN_SIGNAL : undefined;
  const refused = signal === undefined ? undefined : refusedSignal(runner, definition.description, signal);
  if (refused) problems.push({ message: refused });
  if (problems.length > 0) throw new UserError(problems.map((p) => ({ message: p.message })));
  return {
    name,
    values: values as Values<D>,
    params,
    noop: env.GOVERN_NOOP === '1' || env.GOVERN_NOOP === 'true',
    pending: env.GOVERN_NOOP_PENDING ? env.GOVERN_NOOP_PENDING.split('\n').filter((r) => r !== '') : [],
    managed: env.GOVERN_MANAGED_CHILDREN === undefined ? undefined : env.GOVERN_MANAGED_CHILDREN.split('\n').filter((n) => n !== ''),
    signal,
    stateDir: env.GOVERN_STATE_DIR ? env.GOVERN_STATE_DIR : undefined,
    env,
    log,
  };
}

/** One call, start to end: arguments checked, then the runner. */
export function handle<D extends RunnerDescription>(definition: RunnerDefinition<D>, argv: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<RunnerResult> {
  try {
    return definition.run(parseRequest(definition, argv, env, log));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The executable's file name, as govern's block type names the runner. */
function runnerName(): string {
  return process.argv[1] ? path.basename(process.argv[1]) : 'runner';
}

/** What the runner prints when govern asks it to describe itself. */
export function describeDocument(description: RunnerDescription): DescriptionDocument {
  // Every module loaded so far: a rebuilt or edited runner is described again (govern's cache).
  const main = process.argv[1] ? path.resolve(process.argv[1]) : undefined;
  const sources = Object.keys(require.cache).filter((file) => path.isAbsolute(file) && file !== main);
  return { govern_runner: DESCRIPTION_FORMAT, ...description, persistent: true, sources: [...(description.sources ?? []), ...sources] };
}

/**
 * The entry point of a runner executable: its description (GOVERN_DESCRIBE=1), one resource from
 * argv (one-shot protocol), or, when govern starts it with GOVERN_PERSISTENT=1, one resource per
 * JSON line on stdin.
 */
export function runnerMain<D extends RunnerDescription>(definition: RunnerDefinition<D>): void {
  if (process.env[DESCRIBE_ENV] === '1') {
    process.stdout.write(JSON.stringify(describeDocument(definition.description)) + '\n');
    return;
  }
  guardCommands();
  if (process.env[PERSISTENT_ENV] === '1') serveRequests(() => definition, [definition]);
  else runOnce(definition);
}

/**
 * The entry point of the process that serves several built-in runners in persistent mode
 * (src/runners/host/main.ts): each request names its runner; `load` gives a runner's definition,
 * once, at its first request, and those in `prepare` are loaded and prepared at once.
 */
export function hostMain(load: (name: string) => RunnerDefinition | undefined, prepare: string[]): void {
  const loaded = new Map<string, RunnerDefinition>();
  const definitionFor = (name: string | undefined): RunnerDefinition => {
    if (name === undefined) throw new Error('the request names no runner');
    let definition = loaded.get(name);
    if (!definition) {
      const found = load(name);
      if (!found) throw new Error(`this process serves no runner "${name}"`);
      loaded.set(name, (definition = { ...found, name }));
    }
    return definition;
  };
  guardCommands();
  // A runner that cannot be loaded fails its own requests, not the host's start.
  const loadable = prepare.flatMap((name) => {
    try {
      return [definitionFor(name)];
    } catch {
      return [];
    }
  });
  serveRequests(definitionFor, loadable);
}

/** Set on SIGTERM: no command starts, and no request is begun (govern sends it to another process). */
let stopping = false;

/**
 * No command of a runner outlives govern (docs/security.md, "No orphans"). A runner stops on
 * SIGTERM (govern's timeout, govern's own stop, or govern's watcher when govern was killed) and
 * when it sees govern gone; from then on it starts no command, and it checks that govern is still
 * there before each one it starts. Its commands run in process groups of their own, so a watcher
 * of its own kills them should the runner itself be killed before it could.
 */
function guardCommands(): void {
  const governGone = governGoneCheck(process.env);
  startOnlyUnless(() => {
    if (stopping) return 'the runner is stopping';
    return governGone() ? 'govern is gone' : undefined;
  });
  guardChildren(KILL_GRACE_MS / 2);
  process.once('beforeExit', () => void dismissWatcher(KILL_GRACE_MS)); // it leaves with the runner
  // The handler stays: a second SIGTERM (govern's watcher and the runner's own orphan check can
  // both send one) would otherwise meet the default action, which ends the runner at once,
  // possibly before its commands were told.
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    // Ask first (a package manager killed mid-transaction leaves dpkg "interrupted"), then insist,
    // before govern's own SIGKILL arrives (KILL_GRACE_MS); leave as soon as they are gone.
    killAllChildren('SIGTERM');
    const asked = Date.now();
    const check = setInterval(() => {
      if (childrenRunning() > 0 && Date.now() - asked < KILL_GRACE_MS / 2) return;
      clearInterval(check);
      killAllChildren('SIGKILL');
      // A request still unanswered gets its answer now, so that its log is not lost.
      let last: PersistentResponse | undefined;
      if (inFlight && !inFlight.answered) {
        inFlight.answered = true;
        last = { id: inFlight.id, ok: false, changed: false, message: 'stopped by SIGTERM', log: inFlight.log };
      }
      flushAnswers(last, () => process.exit(143));
    }, STOP_CHECK_MS).unref();
  });
  // govern gone (killed, even with SIGKILL) means no one waits for this answer: stop as on SIGTERM.
  setInterval(() => {
    if (governGone()) process.kill(process.pid, 'SIGTERM');
  }, ORPHAN_CHECK_MS).unref();
}

/** How often a runner looks whether govern is still there (it also looks before each command). */
const ORPHAN_CHECK_MS = 1000;
/** Once stopping, how often a runner looks whether its commands are gone, to leave at once. */
const STOP_CHECK_MS = 20;

/** The request a persistent runner is working on. */
let inFlight: { id: number; log: string[]; answered: boolean } | undefined;

function runOnce<D extends RunnerDescription>(definition: RunnerDefinition<D>): void {
  const log = (line: string) => process.stderr.write(line.endsWith('\n') ? line : line + '\n');
  handle(definition, process.argv.slice(2), process.env, log).then(
    (result) => {
      process.stdout.write(formatResult(result));
      process.exitCode = 0;
    },
    (e) => fail(e),
  );
}

/** `definitionFor` gives the runner a request names (a runner's own process ignores the name). */
function serveRequests(definitionFor: (runner: string | undefined) => RunnerDefinition, prepare: RunnerDefinition[]): void {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base[PERSISTENT_ENV];
  for (const key of CALL_ENV) delete base[key];
  for (const definition of prepare) definition.prepare?.(base).catch(() => undefined);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // One request at a time, in order: govern may send the next before this one is answered.
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue
      .then(() => {
        if (stopping) return undefined;
        const request = readRequest(line);
        inFlight = { id: request.id, log: [], answered: false };
        return answer(definitionFor, base, request, inFlight.log);
      })
      .then((response) => {
        if (response === undefined || inFlight?.answered) return;
        inFlight!.answered = true;
        sendAnswer(response);
      });
  });
}

/** A request line; one that cannot be read keeps its id when it has one, so that its answer says what was wrong. */
function readRequest(line: string): PersistentRequest | { id: number; problem: unknown } {
  let request: Partial<PersistentRequest> | undefined;
  try {
    request = JSON.parse(line) as Partial<PersistentRequest>;
  } catch (e) {
    return { id: 0, problem: e };
  }
  const id = typeof request?.id === 'number' ? request.id : 0;
  if (!Array.isArray(request?.argv)) return { id, problem: new Error('the request has no "argv" list') };
  return { id, argv: request.argv, env: request.env ?? {}, ...(typeof request.runner === 'string' ? { runner: request.runner } : {}) };
}

async function answer(
  definitionFor: (runner: string | undefined) => RunnerDefinition,
  base: NodeJS.ProcessEnv,
  request: PersistentRequest | { id: number; problem: unknown },
  log: string[],
): Promise<PersistentResponse> {
  const logLine = (text: string) => log.push(...text.replace(/\n$/, '').split('\n'));
  const { id } = request;
  try {
    if ('problem' in request) throw request.problem;
    const result = await handle(definitionFor(request.runner), request.argv, { ...base, ...request.env }, logLine);
    return { id, ok: true, changed: result.changed, message: result.message !== undefined ? oneLine(result.message) : undefined, diff: result.diff, log };
  } catch (e) {
    logLine(`error: ${errorText(e)}`);
    return { id, ok: false, changed: false, message: oneLine(messageOf(e)), log };
  }
}

function fail(e: unknown): void {
  process.stdout.write(`message=${oneLine(messageOf(e))}\n`);
  process.stderr.write(`error: ${errorText(e)}\n`);
  process.exitCode = 1;
}

/** One line for `message=`: several problems are joined by "; ". */
function messageOf(e: unknown): string {
  if (e instanceof UserError) return e.problems.map(formatProblem).join('; ');
  return e instanceof Error ? e.message : String(e);
}

/** A user's error as it is; anything else (a bug) with its stack. */
function errorText(e: unknown): string {
  return e instanceof UserError ? e.message : ((e as Error)?.stack ?? messageOf(e));
}
