// What the tests of govern test share: trees in temporary directories, the processes of a marker
// (the sandbox's PID namespace shows in the host's /proc), and the Debian 12 base made once and kept
// for the suite's runs (under /var/cache/govern-test, reused by each later run of the suite).
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** A tree in a temporary directory: its files by path under the tree (runners.d/ executable). */
export function tree(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) writeFile(path.join(dir, name), content, name.startsWith('runners.d/') ? 0o755 : 0o644);
  return dir;
}

/** Every process of the host whose arguments hold `marker`, those of a sandbox's PID namespace too. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The suite's Debian 12 base: made by the first test that asks, in every later one found. */
export const DEBIAN_BASE = '/var/cache/govern-test/debian-12';

/** The base's directory, or why there is none here: Debian's mirror cannot be reached (the only reason to skip). */
export async function debianBase(): Promise<{ dir: string } | { skip: string }> {
  const r = await govern(['test', '--make-base', 'debian:12', DEBIAN_BASE], { timeoutMs: 3_600_000 });
  if (r.code === 0) return { dir: DEBIAN_BASE };
  if (r.code === 2 && r.stderr.includes('debootstrap bookworm from')) return { skip: `no Debian 12 base: ${r.stderr.trim()}` };
  throw new Error(`govern test --make-base exited ${r.code}: ${r.stderr}${r.stdout}`);
}
