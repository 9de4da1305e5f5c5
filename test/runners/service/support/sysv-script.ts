// A real SysV init script for the sysv provider's tests: an LSB header, start-stop-daemon running
// a long-lived `sleep` in the background with a pidfile, and a log of the actions it was asked
// for, so a test can tell a start from a restart. remove() stops it and takes away the script,
// its rc links, its pidfile and its log, also after a failed test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../../../src/shared/process.js';

export interface ScriptOptions {
  /** Whether the script has a reload action (default true). */
  reload?: boolean;
  /** A start action that reports success and starts nothing (default false). */
  startDoesNothing?: boolean;
}

export class SysvScript {
  readonly script: string;
  private readonly dir: string;
  readonly pidfile: string;
  readonly actionLog: string;

  constructor(readonly name: string) {
    this.script = path.join('/etc/init.d', name);
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    this.pidfile = path.join(this.dir, 'pid');
    this.actionLog = path.join(this.dir, 'actions');
  }

  install(options: ScriptOptions = {}): void {
    fs.writeFileSync(this.script, this.text(options), { mode: 0o755 });
  }

  /** The script itself, for a test that ships it in a package. */
  text(options: ScriptOptions = {}): string {
    const reload = options.reload ?? true;
    const body = `#!/bin/sh
### BEGIN INIT INFO
# Provides:          ${this.name}
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: govern service runner test daemon
### END INIT INFO
PIDFILE=${this.pidfile}
DAEMON=/bin/sleep
# Its state directory made as an init script makes its /run directory: the script may outlive it.
mkdir -p ${this.dir}
echo "$1" >> ${this.actionLog}
do_status() { start-stop-daemon --status --pidfile $PIDFILE --exec $DAEMON; }
# With --background the pidfile names the child before it has become $DAEMON: wait until status
# says running, so that the script returns with the daemon ready, as a careful init script does.
do_start() {
  start-stop-daemon --start --quiet --background --make-pidfile --pidfile $PIDFILE --exec $DAEMON -- 100000 || return 1
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do do_status && return 0; sleep 0.1; done
  return 1
}
do_stop() { start-stop-daemon --stop --quiet --oknodo --retry TERM/5/KILL/5 --pidfile $PIDFILE --exec $DAEMON --remove-pidfile; }
case "$1" in
  start) ${options.startDoesNothing ? ':' : 'do_start'} ;;
  stop) do_stop ;;
  restart) do_stop && do_start ;;
  status) do_status ;;
${reload ? '  reload) do_status || exit 7 ;;\n' : ''}  *) echo "Usage: $0 {start|stop|restart|status${reload ? '|reload' : ''}}" >&2; exit 3 ;;
esac
`;
    return body;
  }

  /** Runs the script the way an administrator would, to set up a test's starting state. */
  async run(action: string): Promise<void> {
    const result = await runCommand(this.script, [action]);
    if (result.code !== 0) throw new Error(`${this.script} ${action}: exit ${result.code}: ${result.stderr}`);
  }

  async updateRcd(...args: string[]): Promise<void> {
    const result = await runCommand('update-rc.d', [this.name, ...args]);
    if (result.code !== 0) throw new Error(`update-rc.d ${this.name} ${args.join(' ')}: exit ${result.code}: ${result.stderr}`);
  }

  /** The daemon's pid from its pidfile, or undefined. */
  pid(): number | undefined {
    try {
      return Number(fs.readFileSync(this.pidfile, 'utf8').trim());
    } catch {
      return undefined;
    }
  }

  /** The actions the script was run with, oldest first. */
  actions(): string[] {
    try {
      return fs.readFileSync(this.actionLog, 'utf8').split('\n').filter((l) => l !== '');
    } catch {
      return [];
    }
  }

  /** The actions other than status, the ones that change something. */
  changes(): string[] {
    return this.actions().filter((a) => a !== 'status');
  }

  clearActions(): void {
    fs.rmSync(this.actionLog, { force: true });
  }

  /** Its rc links, as "rc2.d/S01name", sorted. */
  links(): string[] {
    const found: string[] = [];
    for (const level of ['S', '0', '1', '2', '3', '4', '5', '6']) {
      const dir = `/etc/rc${level}.d`;
      let entries: string[] = [];
      try {
        entries = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const e of entries) if (/^[SK]\d\d/.test(e) && e.slice(3) === this.name) found.push(`rc${level}.d/${e}`);
    }
    return found.sort();
  }

  startLinks(): string[] {
    return this.links().filter((l) => l.includes('.d/S'));
  }

  async remove(): Promise<void> {
    if (fs.existsSync(this.script)) {
      await runCommand(this.script, ['stop']);
      await runCommand('update-rc.d', [this.name, 'remove']);
      fs.rmSync(this.script, { force: true });
    }
    for (const link of this.links()) fs.rmSync(path.join('/etc', link), { force: true });
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
