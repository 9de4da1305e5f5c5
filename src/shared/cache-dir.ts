// Where govern keeps what it caches between runs (the runners' cache, state/runner-cache.ts; the code
// cache of its bundle, cli/start.ts): GOVERN_CACHE_DIR, else /var/cache/govern as root, else the XDG cache.
import os from 'node:os';
import path from 'node:path';

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GOVERN_CACHE_DIR) return env.GOVERN_CACHE_DIR;
  if (process.getuid?.() === 0) return '/var/cache/govern';
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'govern');
}
