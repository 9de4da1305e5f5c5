// The head of every run report: which host, which govern, when, which state tree.
import os from 'node:os';
import { governVersion } from '../config/paths.js';
import type { LocalFactSource } from '../facts/sources.js';
import { startedAt } from './timing.js';
import type { RunMeta } from './types.js';

/** The host is named by its `fqdn` fact (so a user's fact can set it), else the kernel's host name. */
export async function runMeta(state: string, noop: boolean, facts: LocalFactSource): Promise<RunMeta> {
  let host = os.hostname();
  try {
    await facts.load(['fqdn']);
    const fqdn = facts.peek('fqdn');
    if (fqdn?.ok && fqdn.value !== '') host = fqdn.value;
  } catch {
    // the kernel's name will do
  }
  return { host, govern_version: governVersion(), started_at: startedAt(), state, noop };
}
