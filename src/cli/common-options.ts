// Options several commands share, and the search paths and fact source they make.
import { composeSearchPaths, DEFAULT_VAR_DIR, type DirList, type SearchPaths } from '../config/paths.js';
import { DEFAULT_FACT_TIMEOUT_MS } from '../facts/evaluate.js';
import { LocalFacts } from '../facts/local-facts.js';
import { optionTable } from './options.js';

export const helpOptions = optionTable([{ name: 'help', short: 'h', kind: 'flag', help: 'show this help' }]);

export const factsOptions = optionTable([
  { name: 'facts-dir', kind: 'dirs', placeholder: 'DIR', env: 'GOVERN_FACTS_PATH', help: 'search this facts directory before the defaults' },
  {
    name: 'fact-timeout',
    kind: 'duration',
    placeholder: 'DURATION',
    env: 'GOVERN_FACT_TIMEOUT',
    default: `${DEFAULT_FACT_TIMEOUT_MS / 1000}s`,
    help: 'time limit of one executable fact',
  },
]);

export const templatesOptions = optionTable([
  { name: 'templates-dir', kind: 'dirs', placeholder: 'DIR', env: 'GOVERN_TEMPLATES_PATH', help: 'search this templates directory before the defaults' },
]);

export const runnersOptions = optionTable([
  { name: 'runners-dir', kind: 'dirs', placeholder: 'DIR', env: 'GOVERN_RUNNERS_PATH', help: 'search this runners directory before the defaults' },
]);

export interface GivenDirs {
  factsDir?: DirList;
  templatesDir?: DirList;
  runnersDir?: DirList;
}

/** The search paths of a command, for the state tree at `tree` (if any). */
export function searchPaths(o: GivenDirs, tree: string | undefined): SearchPaths {
  const none: DirList = { added: [] };
  return composeSearchPaths({ facts: o.factsDir ?? none, templates: o.templatesDir ?? none, runners: o.runnersDir ?? none }, tree);
}

export function localFacts(o: { factTimeout: number }, paths: SearchPaths): LocalFacts {
  return new LocalFacts({ dirs: paths.facts, timeoutMs: o.factTimeout });
}

export const varDirOptions = optionTable([
  {
    name: 'var-dir',
    kind: 'text',
    placeholder: 'DIR',
    env: 'GOVERN_VAR_DIR',
    default: DEFAULT_VAR_DIR,
    help: 'where the last run is recorded (last-run.json) and pulled trees are kept',
  },
]);

export const identityOptions = optionTable([
  { name: 'identity', kind: 'text', placeholder: 'FILE', env: 'GOVERN_IDENTITY', help: 'decrypt secrets of the tree with this age identity or SSH private key (default /etc/ssh/ssh_host_ed25519_key)' },
]);
