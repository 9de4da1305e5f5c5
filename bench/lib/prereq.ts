// The peers come from Debian's packages; the benchmark installs what is missing with apt-get
// (nothing is downloaded when they are already there).
import { baseEnv, run } from './proc.js';
import type { ToolName } from './tools.js';

/** GNU time measures peak memory. */
const ALWAYS = ['time'];

const PER_TOOL: Partial<Record<ToolName, string[]>> = {
  puppet: ['puppet'],
  // The apt module installs python3-apt itself when it is missing, inside a timed run: done here instead.
  ansible: ['ansible-core', 'python3-apt'],
  cfengine: ['cfengine3'],
};

export async function ensurePrerequisites(tools: readonly ToolName[], log: (line: string) => void): Promise<void> {
  const wanted = [...new Set([...ALWAYS, ...tools.flatMap((t) => PER_TOOL[t] ?? [])])];
  const missing: string[] = [];
  for (const pkg of wanted) if (!(await isInstalled(pkg))) missing.push(pkg);
  if (missing.length === 0) return;
  log(`installing ${missing.join(' ')} with apt-get`);
  const env = baseEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  let o = await run(['apt-get', 'install', '-y', '-q', ...missing], { env });
  if (o.code !== 0) {
    await run(['apt-get', 'update', '-q'], { env });
    o = await run(['apt-get', 'install', '-y', '-q', ...missing], { env });
  }
  if (o.code !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed:\n${o.stderr.trim()}`);
}

async function isInstalled(pkg: string): Promise<boolean> {
  const o = await run(['dpkg-query', '-W', '-f=${db:Status-Status}', pkg]);
  return o.code === 0 && o.stdout.trim() === 'installed';
}
