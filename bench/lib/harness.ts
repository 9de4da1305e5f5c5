// What the benchmark sets up around the runs, and takes down afterwards even when a run fails or
// the benchmark is interrupted: its root directory (every tool's tree, policy and state), the sysv
// services, and the package inventory cf-agent keeps for the benchmark's package module.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_PATH } from './proc.js';
import { MARKER, initScript } from './services.js';
import { SERVICE_PREFIX } from './workload.js';

/** In the root: the benchmark made it, and may remove it. */
export const ROOT_MARKER = '.govern-bench';
const INIT_D = '/etc/init.d';
const SYSTEMD_BOOTED = '/run/systemd/system';
/** govern's pkg runner holds it around every package command, queries included (see runners/pkg). */
const PKG_LOCK = '/run/govern/pkg.lock';
const CFENGINE_STATE = '/var/lib/cfengine3/state';
/** cf-agent names its inventory databases after the package module body (see writers/cfengine.ts). */
const CFENGINE_MODULE_BODY = 'govern_bench_apt_get';

export class Harness {
  private services: string[] = [];

  constructor(
    readonly root: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Removes what an interrupted earlier run left, then makes the root. */
  prepare(): void {
    const stale = staleServices();
    if (stale.length) this.log(`removing ${stale.length} services left by an earlier run`);
    this.removeServices(stale);
    if (fs.existsSync(this.root)) {
      if (!fs.existsSync(path.join(this.root, ROOT_MARKER))) {
        throw new Error(`${this.root} exists and was not made by the benchmark; remove it or pass --root`);
      }
      fs.rmSync(this.root, { recursive: true, force: true });
    }
    fs.mkdirSync(this.root, { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(this.root, ROOT_MARKER), 'made by bench/run.js; removed when it ends\n');
  }

  /** Installs, enables and starts the services: every tool's runs find them as they want them. */
  installServices(names: string[]): void {
    for (const name of names) {
      const file = `${INIT_D}/${name}`;
      if (fs.existsSync(file) && !isOurs(file)) throw new Error(`${file} exists and was not written by the benchmark; not touching it`);
      this.services.push(name);
      fs.writeFileSync(file, initScript(name), { mode: 0o755 });
      sh(['update-rc.d', name, 'defaults']);
      sh([file, 'start']);
    }
  }

  /**
   * What is no longer as the harness set it up. On a shared machine other work can get in the way:
   * a test suite that runs a systemd user manager creates /run/systemd/system for a while, and then
   * Debian's `service` and `update-rc.d` hand everything to systemctl, which fails without systemd
   * as init; or a service's process gets killed. Every tool would then see (and repair) a change.
   * Another govern installing packages holds govern's package lock, which govern's status queries
   * wait for.
   */
  disturbances(): string[] {
    const found: string[] = [];
    if (fs.existsSync(SYSTEMD_BOOTED)) found.push(`${SYSTEMD_BOOTED} exists (made by another process on this host)`);
    if (pkgLockHeld()) found.push(`${PKG_LOCK} is held (package operations of another govern)`);
    const stopped = this.services.filter((name) => sh([`${INIT_D}/${name}`, 'status'], false) !== '');
    if (stopped.length) found.push(`${stopped.length} services not running (${stopped.slice(0, 3).join(', ')}${stopped.length > 3 ? ', ...' : ''})`);
    const unlinked = this.services.filter((name) => !safeReaddir('/etc/rc2.d').some((l) => l.startsWith('S') && l.slice(3) === name));
    if (unlinked.length) found.push(`${unlinked.length} services without their start link`);
    return found;
  }

  /** Waits for /run/systemd/system to go away and the package lock to be free (up to 15 minutes), then restarts and relinks the services. */
  async restore(): Promise<void> {
    const deadline = Date.now() + 15 * 60_000;
    while (fs.existsSync(SYSTEMD_BOOTED) || pkgLockHeld()) {
      if (Date.now() > deadline) throw new Error(`${SYSTEMD_BOOTED} or ${PKG_LOCK} stayed for 15 minutes; nothing can be measured`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    for (const name of this.services) {
      sh(['update-rc.d', name, 'defaults'], false);
      sh(['update-rc.d', name, 'enable'], false);
      sh([`${INIT_D}/${name}`, 'start']);
    }
  }

  /** Best effort, step by step; returns what could not be undone. */
  cleanup(): string[] {
    const problems = this.removeServices([...new Set([...this.services, ...staleServices()])]);
    this.services = [];
    try {
      fs.rmSync(this.root, { recursive: true, force: true });
    } catch (e) {
      problems.push(`rm -rf ${this.root}: ${(e as Error).message}`);
    }
    for (const f of safeReaddir(CFENGINE_STATE)) {
      if (f.startsWith('packages_') && f.includes(CFENGINE_MODULE_BODY)) fs.rmSync(path.join(CFENGINE_STATE, f), { force: true });
    }
    return problems;
  }

  private removeServices(names: string[]): string[] {
    const problems: string[] = [];
    for (const name of names) {
      const file = `${INIT_D}/${name}`;
      if (fs.existsSync(file) && !isOurs(file)) continue;
      if (fs.existsSync(file)) {
        const stop = sh([file, 'stop'], false);
        if (stop) problems.push(`${file} stop: ${stop}`);
      }
      const remove = sh(['update-rc.d', '-f', name, 'remove'], false);
      if (remove) problems.push(`update-rc.d -f ${name} remove: ${remove}`);
      fs.rmSync(file, { force: true });
      fs.rmSync(`/run/${name}.pid`, { force: true });
    }
    return problems;
  }
}

/** Without creating the lock file when it does not exist. */
function pkgLockHeld(): boolean {
  return fs.existsSync(PKG_LOCK) && sh(['flock', '--nonblock', '--conflict-exit-code', '75', PKG_LOCK, 'true'], false) !== '';
}

function staleServices(): string[] {
  return safeReaddir(INIT_D).filter((e) => e.startsWith(SERVICE_PREFIX) && isOurs(`${INIT_D}/${e}`));
}

function isOurs(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').includes(MARKER);
  } catch {
    return false;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Synchronous on purpose: cleanup also runs from a signal handler, after the running tools were
 * killed. Throws on failure when `strict`; otherwise returns the error text ('' when it worked).
 */
function sh(argv: string[], strict = true): string {
  const r = spawnSync(argv[0], argv.slice(1), { env: { PATH: SYSTEM_PATH }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  // update-rc.d asks systemctl too when it is installed; without systemd as init that part fails
  // with "unit ... does not exist" on stderr while the rc links are still made: only the status counts.
  const failed = r.error ? r.error.message : r.status !== 0 ? (r.stderr || r.stdout || `exit ${r.status}`).trim() : '';
  if (failed && strict) throw new Error(`${argv.join(' ')}: ${failed}`);
  return failed;
}
