// What planning reads from, resolved once from a command's options before anything is read
// (cli/planning-options.ts): plain values, so that no command-line option travels into planning.
import type { SearchPaths } from '../config/paths.js';
import type { LocalFacts } from '../facts/local-facts.js';
import type { Unreadable } from '../secrets/reveal.js';
import type { RunnerCache } from '../state/runner-cache.js';
import type { FactSources } from '../templates/fact-sources.js';

export interface PlanSettings {
  /** The state file or tree planned. */
  target: string;
  paths: SearchPaths;
  facts: LocalFacts;
  sources: FactSources;
  cache: RunnerCache;
  /** The age identity or SSH key that decrypts the tree's secrets; undefined: the host's key. */
  identity?: string;
  /** The selection (--tags, --skip-tags): tags entries, runner names or RREFs. */
  tags: string[];
  skipTags: string[];
  /** Where `hostfact` reads other hosts, for what explains a plan: ssh, the fleet's inventory, or both. */
  hostfactSource: 'auto' | 'fleet' | 'ssh' | 'fleet-then-ssh';
  fleetUrl?: string;
  /** An encrypted value the identity cannot read: an error (a run), or `<sensitive>` (plan, diff). */
  unreadableSecrets: Unreadable;
  /** Where planning's warnings go (stderr); a preview of several hosts says which host each is about. */
  warn?: (message: string) => void;
}
