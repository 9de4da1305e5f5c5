// What the outer govern test hands the sandbox (spec.json in the host's work directory), and where
// in that directory each thing is.
import path from 'node:path';
import type { Check } from './checks.js';

export interface SandboxSpec {
  /** The host's work directory: visible at the same path inside the sandbox. */
  work: string;
  /** The tree as given to govern run, absolute, and its root (bound read-only). */
  target: string;
  treeRoot: string;
  /** govern's own root (bin/govern, dist/bundle) and the Node.js that runs it. */
  governRoot: string;
  node: string;
  /** The snapshot's facts as a facts directory, searched first; undefined: the sandbox's own facts. */
  factsDir?: string;
  checks: Check[];
  /** `--identity FILE`, absolute: the runs decrypt the tree's secrets with it (shown read-only at its path). */
  identity?: string;
  /** `--base DIR`, its real path: the overlay's lower directory instead of the host's root. */
  base?: string;
  /** Over a base: the host's files shown read-only at their paths (Node.js, its libraries, govern). */
  hostFiles?: string[];
  keep: boolean;
  /** `loopback`: a network namespace of its own, its loopback brought up; `host`: the host's. */
  network: 'loopback' | 'host';
  /** The variables govern's runs keep (GOVERN_RUNNER_MODE, GOVERN_JOBS): the rest are the sandbox's defaults. */
  env: Record<string, string>;
}

export const workFiles = (work: string) => ({
  spec: path.join(work, 'spec.json'),
  result: path.join(work, 'result.json'),
  /** Where the sandbox's scratch tmpfs is mounted, inside its mount namespace only. */
  scratch: path.join(work, 'sandbox'),
  facts: path.join(work, 'facts'),
  /** With --keep: the files the sandbox changed, at their paths. */
  changed: path.join(work, 'changed'),
});

/** The sandbox's program: dist/bundle/sandbox.js of govern's root. */
export const sandboxProgram = (governRoot: string) => path.join(governRoot, 'dist', 'bundle', 'sandbox.js');

/** Exit status of `enter` when the sandbox could not be made (the outer govern test exits 2). */
export const NO_SANDBOX_EXIT = 70;
