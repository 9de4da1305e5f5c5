// `govern test`: for each host (this host's facts, or each snapshot of --facts), a sandbox made by
// unshare in which the tree is run as noop, for real, for real again, and checked; each host's
// verdict (verdict.ts) and the exit status a CI job reads: 0 passed, 1 failed, 2 no sandbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GOVERN_ROOT, treeRoot } from '../config/paths.js';
import type { Snapshot } from '../facts/snapshot.js';
import { chooseSnapshots } from '../plan/hosts.js';
import { UserError } from '../shared/errors.js';
import { lastLines, runCommand } from '../shared/process.js';
import { checkBase, hostFilesForBase } from './base-root.js';
import { nspawnProblem, type Driver } from './nspawn.js';
import { onPath } from './on-path.js';
import { readChecks, type Check } from './checks.js';
import { writeSnapshotFacts } from './snapshot-facts.js';
import { NO_SANDBOX_EXIT, sandboxProgram, workFiles, type SandboxSpec } from './spec.js';
import type { HostVerdict, SandboxResult } from './types.js';
import { sandboxFailure, verdict } from './verdict.js';

export interface TestSettings {
  /** The tree, as given. */
  target: string;
  facts?: string;
  host?: string;
  keep: boolean;
  /** `host`: the sandbox shares the host's network namespace (a mirror can be reached); else loopback only. */
  network: 'loopback' | 'host';
  /** `--identity FILE`: decrypts the tree's secrets in the runs, as govern run's option does. */
  identity?: string;
  /** unshare (the default) or nspawn (systemd-nspawn booting a container). */
  driver?: Driver;
  /** `--base DIR`: the sandbox over DIR instead of the host's root. */
  base?: string;
  /** Where unshare, mount and chroot are looked for. */
  env: NodeJS.ProcessEnv;
  /** Told each host's verdict as soon as it is known. */
  onHost?(verdict: HostVerdict): void;
}

export interface TestOutcome {
  hosts: HostVerdict[];
  exit: 0 | 1 | 2;
}

/** The namespaces of the sandbox; `--fork` makes the PID namespace's first process, `--kill-child` ends it with unshare. */
const unshareArgs = (network: TestSettings['network']) => ['--mount', '--pid', '--ipc', '--uts', ...(network === 'host' ? [] : ['--net']), '--fork', '--kill-child', '--propagation', 'private'];

/** Why no sandbox can be made here, or undefined. */
function cannotSandbox(env: NodeJS.ProcessEnv): string | undefined {
  if (process.getuid?.() !== 0) return 'govern test runs as root: the sandbox is made of mount and PID namespaces and an overlay file system';
  const missing = ['unshare', 'mount', 'chroot', 'setpriv'].filter((p) => onPath(p, env) === undefined);
  if (missing.length > 0) return `${missing.join(', ')} not found on PATH (util-linux and coreutils): they make the sandbox`;
  if (!fs.existsSync(sandboxProgram(GOVERN_ROOT))) return `${sandboxProgram(GOVERN_ROOT)} is missing (make build makes it)`;
  return undefined;
}

export async function testHosts(s: TestSettings): Promise<TestOutcome> {
  const target = path.resolve(s.target);
  const root = treeRoot(target);
  if (root === undefined) throw new UserError(`${s.target}: no such state tree`);
  if (s.host !== undefined && s.facts === undefined) throw new UserError('--host needs --facts DIR: the directory of the hosts\' snapshots, HOST.json each');
  // Every problem of the input before any sandbox: the snapshots and the checks.
  const snapshots: (Snapshot | undefined)[] = s.facts !== undefined ? chooseSnapshots(s.facts, s.host) : [undefined];
  const checks = readChecks(root);
  if (s.identity !== undefined && !fs.statSync(s.identity, { throwIfNoEntry: false })?.isFile()) throw new UserError(`--identity ${s.identity}: no such file`);
  const base = s.base !== undefined ? checkBase(s.base) : undefined;
  const why = cannotSandbox(s.env) ?? (s.driver === 'nspawn' ? nspawnProblem(s.env) : undefined) ?? (base !== undefined && 'problem' in base ? base.problem : undefined);
  const over = base !== undefined && 'base' in base ? { base: base.base, hostFiles: await hostFilesForBase(base.base, process.execPath, GOVERN_ROOT) } : {};
  const hosts: HostVerdict[] = [];
  for (const snapshot of snapshots) {
    const host = snapshot?.host ?? os.hostname();
    const v = why !== undefined ? sandboxFailure(host, snapshot?.source, `cannot make the sandbox: ${why}`, 0) : await testHost(s, target, root, checks, snapshot, over);
    hosts.push(v);
    s.onHost?.(v);
  }
  const noSandbox = hosts.some((h) => h.failures.some((f) => f.kind === 'sandbox'));
  return { hosts, exit: noSandbox ? 2 : hosts.every((h) => h.passed) ? 0 : 1 };
}

async function testHost(s: TestSettings, target: string, root: string, checks: Check[], snapshot: Snapshot | undefined, over: Pick<SandboxSpec, 'base' | 'hostFiles'>): Promise<HostVerdict> {
  const started = Date.now();
  const host = snapshot?.host ?? os.hostname();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-sandbox-'));
  const files = workFiles(work);
  let kept = false;
  try {
    fs.mkdirSync(files.scratch, { mode: 0o700 });
    if (snapshot !== undefined) writeSnapshotFacts(snapshot, files.facts);
    const spec: SandboxSpec = {
      work,
      target,
      treeRoot: path.resolve(root),
      governRoot: GOVERN_ROOT,
      node: process.execPath,
      ...(snapshot !== undefined ? { factsDir: files.facts } : {}),
      checks,
      ...over,
      ...(s.identity !== undefined ? { identity: path.resolve(s.identity) } : {}),
      keep: s.keep,
      network: s.network,
      env: Object.fromEntries(['GOVERN_RUNNER_MODE', 'GOVERN_JOBS'].flatMap((k) => (s.env[k] !== undefined ? [[k, s.env[k]!]] : []))),
    };
    fs.writeFileSync(files.spec, JSON.stringify(spec), { mode: 0o600 });
    const r = await runCommand('unshare', [...unshareArgs(s.network), '--', process.execPath, sandboxProgram(GOVERN_ROOT), 'enter', files.spec], { env: s.env, headAndTail: 16 * 1024 });
    const took = Date.now() - started;
    const result = readResult(files.result);
    if (result === undefined || r.code === NO_SANDBOX_EXIT) {
      return sandboxFailure(host, snapshot?.source, lastLines(r.stderr.trim() || r.spawnError?.message || `unshare exit ${r.code}`, 5), took);
    }
    const v = verdict(host, snapshot?.source, result, spec.treeRoot, took);
    if (s.keep && fs.existsSync(files.changed)) {
      kept = true;
      v.kept = files.changed;
    }
    if (r.code !== 0) v.failures.push({ kind: 'sandbox', message: `the sandbox ended with exit ${r.code}: ${lastLines(r.stderr.trim(), 5)}` });
    v.passed = v.failures.length === 0;
    return v;
  } finally {
    if (kept) for (const name of ['spec', 'result', 'scratch', 'facts'] as const) fs.rmSync(files[name], { recursive: true, force: true });
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

function readResult(file: string): SandboxResult | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as SandboxResult;
  } catch {
    return undefined;
  }
}
