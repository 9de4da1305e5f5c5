// Debian's real OpenRC (rc-service, rc-update, openrc-run, librc), unpacked by scripts/setup-debian
// rather than installed (installing it brings insserv, which changes update-rc.d for the whole
// machine), and run as on an Alpine host: every command goes through enter(), which starts it in a
// private mount namespace where the unpacked programs are in /usr (so /sbin/openrc-run and
// /lib/rc are where OpenRC looks), /etc/init.d holds only the test's scripts, and what OpenRC
// writes (/etc/runlevels, /run/openrc) lands in this scratch directory, where /run/systemd and
// /run/runit are hidden (so the runner sees OpenRC as the init system). /sys/fs/cgroup is an empty
// tmpfs there, so openrc-run moves no process between the machine's cgroups. Nothing outside the
// scratch directory changes, except the daemons the scripts start; remove() stops them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type RunResult } from '../../../../src/shared/process.js';

/** Where scripts/setup-debian unpacks openrc, librc1 and libeinfo1. */
export const OPENRC_UNPACKED = '/opt/govern-test/openrc';

const ENTER = `#!/bin/sh
# Runs "$@" where the unpacked OpenRC is the init system's (see openrc-root.ts).
R=$(dirname "$0")
exec unshare -m sh -c '
set -e
mount -t overlay overlay -o "lowerdir=$0/usr:/usr" /usr
mount -t overlay overlay -o "lowerdir=$0/etc:/etc,upperdir=$0/etc.upper,workdir=$0/etc.work" /etc
mount --bind "$0/init.d" /etc/init.d
mount -t overlay overlay -o "lowerdir=/run,upperdir=$0/run.upper,workdir=$0/run.work" /run
mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup
mkdir /sys/fs/cgroup/unified
exec "$@"' "$R" "$@"
`;

export class OpenrcRoot {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-openrc-'));
  /** The wrapper that runs a command inside the namespace. */
  readonly enter = path.join(this.dir, 'enter');
  private readonly services: string[] = [];

  static available(): boolean {
    return process.getuid?.() === 0 && fs.existsSync(path.join(OPENRC_UNPACKED, 'sbin', 'rc-service'));
  }

  /** Lays out the scratch root and boots OpenRC into its default runlevel (`openrc default`). */
  async boot(): Promise<void> {
    const copy = (from: string, to: string) => fs.cpSync(path.join(OPENRC_UNPACKED, from), path.join(this.dir, to), { recursive: true, verbatimSymlinks: true });
    copy('sbin', 'usr/sbin');
    copy('lib', 'usr/lib');
    copy('etc/rc.conf', 'etc/rc.conf');
    copy('etc/runlevels', 'etc/runlevels');
    // What Debian's openrc reads besides (its dependency scan follows insserv's configuration).
    for (const d of ['etc/conf.d', 'etc/rc.conf.d', 'etc/insserv.conf.d', 'etc.upper', 'etc.work', 'run.upper', 'run.work', 'init.d']) {
      fs.mkdirSync(path.join(this.dir, d), { recursive: true });
    }
    fs.writeFileSync(path.join(this.dir, 'etc', 'insserv.conf'), '');
    // Overlay whiteouts: inside, /run/systemd and /run/runit do not exist, whatever the machine (or
    // another test) has there, so OpenRC is the only init system the service runner can see.
    for (const hidden of ['systemd', 'runit']) {
      const made = await runCommand('mknod', [path.join(this.dir, 'run.upper', hidden), 'c', '0', '0']);
      if (made.code !== 0) throw new Error(`mknod: ${made.stderr}`);
    }
    fs.writeFileSync(this.enter, ENTER, { mode: 0o755 });
    const booted = await this.run(['openrc', 'default']);
    if (booted.code !== 0) throw new Error(`openrc default: exit ${booted.code}: ${booted.stderr}`);
  }

  /** An OpenRC script running a long `sleep` with a pidfile; `reload` (if offered) is logged to actions(). */
  addService(name: string, options: { reload: boolean }): void {
    const reload = options.reload
      ? `extra_started_commands="reload"\nreload() {\n\tebegin "Reloading \${RC_SVCNAME}"\n\techo reload >> /run/\${RC_SVCNAME}.actions\n\teend 0\n}\n`
      : '';
    const script = `#!/sbin/openrc-run\ndescription="govern's OpenRC test daemon"\ncommand=/bin/sleep\ncommand_args=100000\ncommand_background=yes\npidfile=/run/\${RC_SVCNAME}.pid\n${reload}`;
    fs.writeFileSync(path.join(this.dir, 'init.d', name), script, { mode: 0o755 });
    this.services.push(name);
  }

  /** A command inside the namespace. */
  run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
    return runCommand(this.enter, argv, { env, timeoutMs: 120_000 });
  }

  /** The daemon's pid, from the pidfile openrc-run's start-stop-daemon wrote, or undefined. */
  pid(name: string): number | undefined {
    try {
      return Number(fs.readFileSync(path.join(this.dir, 'run.upper', `${name}.pid`), 'utf8').trim());
    } catch {
      return undefined;
    }
  }

  /**
   * The pid of the daemon a start just made. openrc-run's start-stop-daemon returns once it has
   * forked, and the child writes the pidfile: wait for a live pid other than `not` (the one a
   * restart replaced), for at most 30 seconds.
   */
  async startedPid(name: string, not?: number): Promise<number> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const pid = this.pid(name);
      if (pid !== undefined && pid !== not && alive(pid)) return pid;
      if (Date.now() > deadline) throw new Error(`no new live pid in ${name}'s pidfile after 30s (last: ${pid})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The script's reloads so far. */
  reloads(name: string): number {
    try {
      return fs.readFileSync(path.join(this.dir, 'run.upper', `${name}.actions`), 'utf8').split('\n').filter((l) => l === 'reload').length;
    } catch {
      return 0;
    }
  }

  /** The runlevels rc-update put the service in. */
  runlevels(name: string): string[] {
    const levels = path.join(this.dir, 'etc.upper', 'runlevels');
    if (!fs.existsSync(levels)) return [];
    return fs.readdirSync(levels).filter((level) => fs.existsSync(path.join(levels, level, name)) || isLink(path.join(levels, level, name))).sort();
  }

  async remove(): Promise<void> {
    for (const name of this.services) {
      await this.run(['rc-service', name, 'stop']);
      const pid = this.pid(name);
      if (pid !== undefined) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
