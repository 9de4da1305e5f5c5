// What every writer gets and returns.
import fs from 'node:fs';
import path from 'node:path';
import type { Workload } from '../workload.js';

export interface WriteTarget {
  /** Absolute directory of the tree this tool manages (its files, directories and exec markers). */
  tree: string;
  /** Directory the tool's policy (state tree, manifest, playbook, policy, script) is written to. */
  policyDir: string;
}

export interface WrittenPolicy {
  /** What the tool is pointed at: a directory or a file. */
  entry: string;
  /** Resources written, counted by the writer (blocks, resources, tasks, promises, checks). */
  resources: number;
}

export type Writer = (workload: Workload, target: WriteTarget) => WrittenPolicy;

export function writeText(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
}

export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export const EXEC_TOUCH = '/usr/bin/touch';
