// Which provider manages packages on this host: the one asked for, else the one the os/family
// fact names, else the one whose tools are installed.
import { runCommand } from '../../shared/process.js';
import { RunnerError } from '../kit.js';
import type { ProviderName } from './properties.js';
import type { PackageProvider } from './provider.js';
import { aptProvider } from './provider-apt.js';
import { dnfProvider } from './provider-dnf.js';
import { findOnPath, type ToolContext } from './tools.js';

const FACTORIES: Record<ProviderName, (context: ToolContext) => PackageProvider> = {
  apt: aptProvider,
  dnf: dnfProvider,
};

/** os/family values and their package manager. */
const FAMILY_PROVIDERS: Record<string, ProviderName> = {
  debian: 'apt',
  ubuntu: 'apt',
  redhat: 'dnf',
  rhel: 'dnf',
  fedora: 'dnf',
  centos: 'dnf',
  rocky: 'dnf',
  almalinux: 'dnf',
  amazon: 'dnf',
};

/** Tried in this order when nothing names the provider (a Debian host may carry rpm and dnf too). */
const DETECTION_ORDER: ProviderName[] = ['apt', 'dnf'];

export async function chooseProvider(requested: ProviderName | undefined, context: ToolContext): Promise<PackageProvider> {
  if (requested) return usable(FACTORIES[requested](context), context, `provider = "${requested}"`);

  const family = await osFamily(context);
  const fromFamily = family !== undefined && Object.hasOwn(FAMILY_PROVIDERS, family) ? FAMILY_PROVIDERS[family] : undefined;
  if (fromFamily) return usable(FACTORIES[fromFamily](context), context, `os/family is ${family}`);
  if (family !== undefined) context.log(`os/family is ${family}, which names no package manager govern knows; looking for one`);

  for (const name of DETECTION_ORDER) {
    const provider = FACTORIES[name](context);
    if (missingTools(provider, context).length === 0) return provider;
  }
  const needs = DETECTION_ORDER.map((name) => `${name} needs ${listWords(FACTORIES[name](context).tools)}`).join('; ');
  throw new RunnerError(`no supported package manager found on PATH (${needs})`);
}

function usable(provider: PackageProvider, context: ToolContext, why: string): PackageProvider {
  const missing = missingTools(provider, context);
  if (missing.length > 0) {
    const verb = missing.length === 1 ? 'is' : 'are';
    throw new RunnerError(`the ${provider.name} provider (${why}) needs ${listWords(missing)}, which ${verb} not on PATH (${context.env.PATH ?? ''})`);
  }
  return provider;
}

function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function missingTools(provider: PackageProvider, context: ToolContext): string[] {
  return provider.tools.filter((tool) => findOnPath(tool, context.env) === undefined);
}

/**
 * The os/family fact, from `$GOVERN facts os/family` when govern called us; undefined otherwise or on
 * failure. Asked once per govern and facts path: a persistent runner serves every pkg resource of a
 * run, and the fact does not change during one.
 */
export function osFamily(context: ToolContext): Promise<string | undefined> {
  const govern = context.env.GOVERN;
  if (!govern) return Promise.resolve(undefined);
  const key = `${govern}\0${context.env.GOVERN_FACTS_PATH ?? ''}`;
  let answer = familyCache.get(key);
  if (!answer) {
    answer = readFamily(govern, context);
    familyCache.set(key, answer);
  }
  return answer;
}

const familyCache = new Map<string, Promise<string | undefined>>();

async function readFamily(govern: string, context: ToolContext): Promise<string | undefined> {
  const result = await runCommand(govern, ['facts', 'os/family'], { env: context.env, timeoutMs: 60_000 });
  if (result.code !== 0) {
    context.log(`could not read the os/family fact (${govern} facts os/family: ${result.spawnError?.message ?? `exit ${result.code}`}); looking for a package manager`);
    return undefined;
  }
  return parseFactOutput(result.stdout, 'os/family');
}

/** `govern facts NAME` prints the value, or "NAME VALUE" (or NAME=VALUE) as a listing of facts does. */
export function parseFactOutput(stdout: string, name: string): string | undefined {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const line of lines) {
    const match = /^([^\s=]+)(?:\s+|=)(.*)$/.exec(line);
    if (match && match[1] === name) return match[2].trim().toLowerCase() || undefined;
  }
  if (lines.length === 1 && !/\s/.test(lines[0])) return lines[0].toLowerCase();
  return undefined;
}
