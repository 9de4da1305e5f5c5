// Facts about this host and this checkout that the workload depends on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { baseEnv, check } from './proc.js';

/** The checkout: dist/bench/lib/ is three levels below it. */
export const REPO = path.resolve(__dirname, '..', '..', '..');
export const GOVERN = path.join(REPO, 'bin', 'govern');

export function governHasRunner(name: string): boolean {
  return fs.existsSync(path.join(REPO, 'runners', name));
}

/**
 * Installed packages suitable for `ensure = present` in every tool: fully installed, one instance
 * (no Multi-Arch: same package, whose name each tool spells differently), a plain name. Sorted, so
 * the same machine always gives the same workload.
 */
export async function installedPackages(): Promise<string[]> {
  const out = await check(['dpkg-query', '-W', '-f=${Package}\t${db:Status-Status}\t${Multi-Arch}\n']);
  const seen = new Map<string, number>();
  const ok = new Set<string>();
  for (const line of out.split('\n')) {
    const [name, status, multiArch] = line.split('\t');
    if (!name) continue;
    seen.set(name, (seen.get(name) ?? 0) + 1);
    if (status === 'installed' && multiArch !== 'same' && /^[a-z0-9][a-z0-9.+-]*$/.test(name)) ok.add(name);
  }
  return [...ok].filter((n) => seen.get(n) === 1).sort();
}

/** The host name as govern's `hostname` fact has it: what every tool's fact must agree with. */
export async function governHostname(): Promise<string> {
  const out = await check([GOVERN, 'facts', '--json', 'hostname'], { env: baseEnv() });
  return (JSON.parse(out) as Record<string, string>).hostname;
}

let clockTicks: number | undefined;

/** CPU seconds of a process and its waited-for children, from /proc (utime stime cutime cstime). */
export function cpuSeconds(pid: number | 'self'): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / clockTicks;
}
