// Options several commands share, and the fact source they make.
import { DEFAULT_VAR_DIR, type SearchPaths } from '../config/paths.js';
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
