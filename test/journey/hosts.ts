// Simulated hosts for the journey test: each is a private mount namespace of this machine with its
// own /etc (an overlay over the real one: what the host writes lands in its upper directory, which
// the test reads), its own /run/govern, /var/lib/govern and /var/cache/govern (tmpfs), its SSH host
// key at /etc/ssh/ssh_host_ed25519_key and its facts. The namespace lives as long as its holder
// process, which waits on its stdin: closing it ends the host.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type RunResult } from '../../src/shared/process.js';
import { GOVERN } from '../support/cli.js';
import { processAlive } from '../support/proc.js';
import { stderrOf } from '../fleet/support.js';
import { writeFile } from '../support/tmp.js';

export interface SimulatedHost {
  name: string;
  /** The host's own /etc: only what it wrote there (the overlay's upper directory). */
  etc: string;
  facts: string;
  /** A file as the host sees it (its own /etc over this machine's). */
  read(file: string): Promise<string>;
  /** Runs govern inside the host. */
  govern(args: string[]): Promise<RunResult>;
  /** Starts govern inside the host, in the background. */
  spawn(args: string[]): ChildProcess;
  /** The pids of the runs its listener started, to wait for. */
  runPids: string;
  close(): Promise<void>;
}

const kept: string[] = [];

/** A directory that lives until removeJourneyDirs(), across the tests of the journey (tmp.ts's go after each test). */
export function journeyDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  kept.push(dir);
  return dir;
}

export function removeJourneyDirs(): void {
  for (const dir of kept.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** The environment of a process on a simulated host: the host's own directories, not the suite's. */
function hostEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['GOVERN_LOCK_DIR', 'GOVERN_CACHE_DIR', 'GOVERN_VAR_DIR', 'GOVERN_IDENTITY', 'GOVERN_FLEET_URL']) delete env[name];
  return env;
}

export async function startHost(name: string, facts: Record<string, string>, hostKey: string): Promise<SimulatedHost> {
  const dir = journeyDir(`govern-journey-${name}-`);
  const etc = path.join(dir, 'etc');
  fs.mkdirSync(path.join(etc, 'ssh'), { recursive: true });
  fs.copyFileSync(hostKey, path.join(etc, 'ssh', 'ssh_host_ed25519_key'));
  fs.chmodSync(path.join(etc, 'ssh', 'ssh_host_ed25519_key'), 0o600);
  fs.mkdirSync(path.join(dir, 'work'));
  const factsDir = path.join(dir, 'facts');
  for (const [fact, value] of Object.entries(facts)) writeFile(path.join(factsDir, fact), value);
  const script = [
    'set -e',
    `mount -t overlay overlay -o lowerdir=/etc,upperdir=${etc},workdir=${dir}/work /etc`,
    'for d in /run/govern /var/lib/govern /var/cache/govern; do mkdir -p $d; mount -t tmpfs -o mode=0700 tmpfs $d; done',
    'echo ready >&2',
    'exec cat >/dev/null',
  ].join('\n');
  const holder = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { stdio: ['pipe', 'ignore', 'pipe'] });
  const { said, text } = stderrOf(holder);
  await Promise.race([said('ready\n'), new Promise<never>((_, reject) => holder.once('exit', (code) => reject(new Error(`host ${name} did not start (${code}): ${text()}`))))]);
  const mnt = `--mount=/proc/${holder.pid}/ns/mnt`;
  const enter = [mnt, '--', GOVERN];
  const children: ChildProcess[] = [];
  const runPids = path.join(dir, 'run-pids');
  return {
    name,
    etc,
    facts: factsDir,
    runPids,
    read: async (file) => {
      const r = await runCommand('nsenter', [mnt, '--', 'cat', '--', file]);
      if (r.code !== 0) throw new Error(`${name}: cat ${file}: ${r.stderr}`);
      return r.stdout;
    },
    govern: (args) => runCommand('nsenter', [...enter, ...args], { env: hostEnv(), timeoutMs: 300_000 }),
    spawn: (args) => {
      const child = spawn('nsenter', [...enter, ...args], { env: hostEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(child);
      return child;
    },
    close: async () => {
      await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((resolve) => (c.once('exit', resolve), c.kill('SIGTERM'))) : undefined)));
      await runsEnded(runPids);
      await new Promise((resolve) => (holder.once('exit', resolve), holder.stdin!.end()));
    },
  };
}

/**
 * A run command for `govern listen` on the host: starts `govern run ARGS` in the background and
 * returns, as `systemctl --no-block start` does; each run's pid is kept in the host's runPids.
 */
export function runStarter(host: SimulatedHost, args: string[]): string {
  const quoted = [GOVERN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return writeFile(path.join(path.dirname(host.etc), 'start-run'), `#!/bin/sh\nexec </dev/null >/dev/null 2>&1\n${quoted} &\necho $! >> ${host.runPids}\n`, 0o755);
}

/** Waits until the runs a listener started have ended (each run's pid, checked as it goes). */
export async function runsEnded(file: string): Promise<void> {
  const pids = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map(Number) : [];
  fs.rmSync(file, { force: true });
  for (const pid of pids) while (processAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}
