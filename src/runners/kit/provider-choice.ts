// The one way every built-in runner picks its provider (the tool that does the work): the one the
// resource names, else the first, in the runner's order of preference, that suits this host. The
// chosen provider's commands must be on PATH; adding a provider is one file and one entry in the
// runner's list (providers.ts).
import path from 'node:path';
import { listWords } from '../../shared/arguments.js';
import type { ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { findExecutable, pathDirs } from '../../shared/find-program.js';

export interface ProviderOption<P, Props> {
  readonly name: string;
  /** The commands it runs, which must be on PATH once it is chosen. */
  readonly tools: readonly string[];
  /** When the resource names no provider: why this one suits the host (for messages), or undefined. */
  suits(props: Props, context: ProviderContext): string | undefined | Promise<string | undefined>;
  create(props: Props, context: ProviderContext): P;
}

/** `what` names the kind of provider in messages: "package manager". */
export async function chooseProvider<P, Props>(
  what: string,
  options: readonly ProviderOption<P, Props>[],
  requested: string | undefined,
  props: Props,
  context: ProviderContext,
): Promise<P> {
  if (requested !== undefined) {
    const option = options.find((o) => o.name === requested);
    if (!option) throw new UserError(`unknown provider "${requested}" (known: ${options.map((o) => o.name).join(', ')})`);
    return usable(option, `provider = "${requested}"`, props, context);
  }
  for (const option of options) {
    const why = await option.suits(props, context);
    if (why !== undefined) return usable(option, why, props, context);
  }
  const needs = options.map((o) => `${o.name} needs ${listWords(o.tools)}`).join('; ');
  throw new UserError(`no supported ${what} found on PATH (${needs})`);
}

/** The commands of a provider that are not on the context's PATH. */
export function missingTools(tools: readonly string[], context: ProviderContext): string[] {
  const dirs = pathDirs(context.env);
  return tools.filter((tool) => {
    const key = `${tool}\0${dirs.join('\0')}`;
    const known = foundAt.get(key);
    if (known !== undefined && findExecutable(path.basename(known), [path.dirname(known)]) !== undefined) return false;
    const at = findExecutable(tool, dirs);
    if (at === undefined) foundAt.delete(key);
    else {
      if (foundAt.size >= FOUND_AT_MAX) foundAt.clear(); // PATHs a run's resources set are not bounded
      foundAt.set(key, at);
    }
    return at === undefined;
  });
}

/**
 * Where each tool was found on a PATH. The runner host asks for every resource: one look where the
 * tool was found is enough while it is still there (a stat, where a search of PATH is one for each
 * directory before it). What is missing is searched for again: a resource may install it.
 */
const foundAt = new Map<string, string>();
const FOUND_AT_MAX = 256;

function usable<P, Props>(option: ProviderOption<P, Props>, why: string, props: Props, context: ProviderContext): P {
  const missing = missingTools(option.tools, context);
  if (missing.length > 0) {
    const verb = missing.length === 1 ? 'is' : 'are';
    throw new UserError(`the ${option.name} provider (${why}) needs ${listWords(missing)}, which ${verb} not on PATH (${context.env.PATH ?? ''})`);
  }
  return option.create(props, context);
}
