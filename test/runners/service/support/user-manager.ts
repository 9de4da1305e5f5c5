// A real systemd, as a user manager (`systemd --user`), for the systemd provider's tests. systemd
// is not PID 1 on the test machines, and a user instance refuses to start unless
// /run/systemd/system exists, so this creates it for the manager's lifetime, only when it was
// absent. stop() undoes everything start() did, also after a failed start. There is one manager
// per user and runtime directory on a host: a test that starts one holds the host lock
// (test/support/host-lock.ts), so that two test runs do not share it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand, type RunResult } from '../../../../src/shared/process.js';

export const SYSTEMD_BOOTED_DIR = '/run/systemd/system';
const RUNTIME_DIR = `/run/user/${process.getuid?.() ?? 0}`;

export class UserManager {
  /** The environment systemctl --user (and the runner) needs to reach this manager. */
  readonly env: NodeJS.ProcessEnv;
  readonly unitDir = path.join(os.homedir(), '.config', 'systemd', 'user');
  private process?: ChildProcess;
  private exited?: Promise<void>;
  private output = '';
  /** What start() created and stop() removes, deepest last. */
  private created: string[] = [];
  private units: string[] = [];
  private readonly onExit = () => this.stopNow();
  /** Interrupted (Ctrl-C, a CI timeout): clean up, then die of the same signal. */
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.stopNow();
    process.kill(process.pid, signal);
  };

  constructor() {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: RUNTIME_DIR };
    delete env.XDG_CONFIG_HOME; // units go to ~/.config/systemd/user whatever the caller's setup
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.GOVERN_NOOP;
    delete env.GOVERN_SIGNAL;
    this.env = env;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  async start(): Promise<void> {
    process.once('exit', this.onExit);
    process.once('SIGINT', this.onSignal);
    process.once('SIGTERM', this.onSignal);
    this.makeDir(SYSTEMD_BOOTED_DIR, 0o755);
    this.makeDir(RUNTIME_DIR, 0o700);
    fs.chmodSync(RUNTIME_DIR, 0o700);
    this.makeDir(this.unitDir, 0o755);
    const child = spawn('/lib/systemd/systemd', ['--user'], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = child;
    child.stdout?.on('data', (c: Buffer) => (this.output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.output += c.toString()));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 30_000;
    let answer = '';
    for (;;) {
      if (!this.running) throw new Error(`systemd --user exited at start: ${this.output.trim()}`);
      answer = (await this.systemctl('is-system-running')).stdout.trim();
      if (answer === 'running' || answer === 'degraded') return;
      if (Date.now() > deadline) throw new Error(`systemd --user did not come up within 30s (is-system-running: ${answer}): ${this.output.trim()}`);
      await sleep(100);
    }
  }

  systemctl(...args: string[]): Promise<RunResult> {
    return runCommand('systemctl', ['--user', ...args], { env: this.env, timeoutMs: 60_000 });
  }

  /** Writes a unit file (removed by stop()) and reloads the manager. */
  async writeUnit(name: string, content: string): Promise<void> {
    const file = path.join(this.unitDir, name);
    if (!this.units.includes(file)) this.units.push(file);
    fs.writeFileSync(file, content);
    await this.mustSucceed('daemon-reload');
  }

  async mustSucceed(...args: string[]): Promise<RunResult> {
    const result = await this.systemctl(...args);
    if (result.code !== 0) throw new Error(`systemctl --user ${args.join(' ')}: exit ${result.code}: ${result.stderr.trim()}`);
    return result;
  }

  async mainPid(unit: string): Promise<number> {
    return Number((await this.mustSucceed('show', '--property=MainPID', '--value', unit)).stdout.trim());
  }

  async stop(): Promise<void> {
    if (this.running) {
      for (const unit of this.units) {
        await this.systemctl('disable', '--now', path.basename(unit));
      }
      await this.systemctl('exit');
      await Promise.race([this.exited, sleep(10_000)]);
    }
    this.stopNow();
  }

  /** Synchronous, so it also works from the process's exit handler. */
  private stopNow(): void {
    process.removeListener('exit', this.onExit);
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
    if (this.running) this.process?.kill('SIGKILL');
    for (const unit of this.units.splice(0)) {
      fs.rmSync(unit, { force: true });
      // links left by an enable the test did not undo
      for (const wants of safeReaddir(this.unitDir).filter((d) => d.endsWith('.wants'))) {
        fs.rmSync(path.join(this.unitDir, wants, path.basename(unit)), { force: true });
      }
    }
    for (const dir of this.created.splice(0).reverse()) fs.rmSync(dir, { recursive: true, force: true });
  }

  /** Creates a directory and any missing parents, remembering the topmost one it created. */
  private makeDir(dir: string, mode: number): void {
    let top: string | undefined;
    for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) top = d;
    if (top === undefined) return;
    fs.mkdirSync(dir, { recursive: true, mode });
    this.created.push(top);
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
