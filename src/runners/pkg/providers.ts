// The package providers, in order of preference, and when each suits the host: the one the os/family
// fact names, else (no fact, or one govern does not map) the first whose tools are installed.
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider, missingTools, type ProviderOption } from '../kit/provider-choice.js';
import type { PackageProperties, ProviderName } from './properties.js';
import type { PackageProvider } from './provider.js';
import { aptProvider } from './provider-apt.js';
import { dnfProvider } from './provider-dnf.js';
import { pacmanProvider } from './provider-pacman.js';
import { pkgngProvider } from './provider-pkgng.js';
import { zypperProvider } from './provider-zypper.js';

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
  arch: 'pacman',
  suse: 'zypper',
  freebsd: 'pkgng',
};

function option(name: ProviderName, tools: string[], create: (context: ProviderContext) => PackageProvider): ProviderOption<PackageProvider, PackageProperties> {
  return {
    name,
    tools,
    async suits(_props, context) {
      const family = await osFamily(context);
      const named = family !== undefined && Object.hasOwn(FAMILY_PROVIDERS, family) ? FAMILY_PROVIDERS[family] : undefined;
      // A family that names a package manager decides, tools or not: a missing tool is an error, not a silent switch.
      if (named !== undefined) return named === name ? `os/family is ${family}` : undefined;
      return missingTools(tools, context).length === 0 ? 'its tools are on PATH' : undefined;
    },
    create: (_props, context) => create(context),
  };
}

/** Tried in this order when no fact decides (a Debian host may carry rpm and dnf too). */
export const PACKAGE_PROVIDERS = [
  option('apt', ['dpkg-query', 'apt-get', 'apt-cache', 'flock'], aptProvider),
  option('dnf', ['rpm', 'dnf', 'flock'], dnfProvider),
  option('pacman', ['pacman', 'flock'], pacmanProvider),
  option('zypper', ['rpm', 'zypper', 'flock'], zypperProvider),
  option('pkgng', ['pkg', 'flock'], pkgngProvider),
];

export function packageProvider(properties: PackageProperties, context: ProviderContext): Promise<PackageProvider> {
  return chooseProvider('package manager', PACKAGE_PROVIDERS, properties.provider, properties, context);
}

/**
 * The os/family fact, as `$GOVERN facts os/family` prints it when govern called us; undefined otherwise
 * or on failure. When GOVERN is this runner's own govern, the fact is answered in this process by the
 * code that command runs (src/facts/env-fact.ts, loaded only then): a whole govern started for one
 * fact was a third of a no-change run (bench/README.md, "Round seven"). Another govern is asked.
 * Asked once per govern and facts path: a persistent runner serves every pkg resource of a run, and
 * the fact does not change during one.
 */
export function osFamily(context: ProviderContext): Promise<string | undefined> {
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

async function readFamily(govern: string, context: ProviderContext): Promise<string | undefined> {
  const facts = await import('../../facts/env-fact.js');
  const result = facts.isThisGovern(govern)
    ? { ...(await facts.factAsPrinted('os/family', context.env)), spawnError: undefined }
    : await context.run(govern, ['facts', 'os/family'], { env: context.env, timeoutMs: 60_000 });
  if (result.code !== 0) {
    context.log(`could not read the os/family fact (${govern} facts os/family: ${result.spawnError?.message ?? `exit ${result.code}`}); looking for a package manager`);
    return undefined;
  }
  const family = parseFactOutput(result.stdout, 'os/family');
  if (family !== undefined && !Object.hasOwn(FAMILY_PROVIDERS, family)) {
    context.log(`os/family is ${family}, which names no package manager govern knows; looking for one`);
  }
  return family;
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
