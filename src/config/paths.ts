// Where govern looks for runners, facts and templates (DESIGN.md, "Paths"). Run from a checkout,
// the checkout's runners/, facts.d/ and templates.d/ are the shipped directories.
import fs from 'node:fs';
import path from 'node:path';

export interface SearchPaths {
  /** Highest priority first. */
  runners: string[];
  facts: string[];
  templates: string[];
}

/** The tree govern runs from: a checkout, or PREFIX/lib/govern when installed. */
export const GOVERN_ROOT = path.resolve(__dirname, '..', '..', '..');

function isCheckout(root: string): boolean {
  return fs.existsSync(path.join(root, 'runners')) && fs.existsSync(path.join(root, 'src'));
}

export function defaultSearchPaths(env: NodeJS.ProcessEnv = process.env, root = GOVERN_ROOT): SearchPaths {
  const checkout = isCheckout(root);
  // Installed: root is PREFIX/lib/govern, so the user's configuration is PREFIX/etc/govern.
  const etc = checkout ? '/usr/local/etc/govern' : path.resolve(root, '..', '..', 'etc', 'govern');
  const fromEnv = (name: string) => (env[name] ? env[name]!.split(':').filter((d) => d !== '') : undefined);
  return {
    runners: fromEnv('GOVERN_RUNNERS_PATH') ?? [path.join(etc, 'runners.d'), path.join(root, checkout ? 'runners' : 'bin')],
    facts: fromEnv('GOVERN_FACTS_PATH') ?? [path.join(etc, 'facts.d'), path.join(root, 'facts.d')],
    templates: fromEnv('GOVERN_TEMPLATES_PATH') ?? (checkout ? [path.join(root, 'templates.d')] : [path.join(etc, 'templates.d')]),
  };
}

/** The govern executable runners are told about (GOVERN): the one the user invoked. */
export function governExecutable(): string {
  const invoked = process.argv[1];
  return invoked ? path.resolve(invoked) : path.join(GOVERN_ROOT, 'bin', 'govern');
}
