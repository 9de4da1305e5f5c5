// When govern itself is killed (SIGKILL, the OOM killer), it cannot kill what it started: a small
// watcher started with it does. govern tells it each process group it starts and ends ("+PGID",
// "-PGID" lines on its stdin); when that pipe closes, whatever the reason govern went, the watcher
// sends SIGTERM to the groups still listed, then SIGKILL after the grace a runner has to take its
// own commands down (docs/security.md, "No orphans"). Node has no prctl(PR_SET_PDEATHSIG).
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The watcher, in sh: it costs a millisecond to start and a few hundred kilobytes to keep. After
 * the SIGTERM it looks every tenth of a second whether a group is left, and leaves as soon as none
 * is (a group is gone once its last process has ended).
 */
const watcherScript = (graceSeconds: number) => `
trap '' INT TERM HUP PIPE
groups=' '
while read -r op id; do
  case $op in
    +) groups="$groups$id " ;;
    -) case $groups in *" $id "*) groups="\${groups%%" $id "*} \${groups#*" $id "}" ;; esac ;;
  esac
done
set -- $groups
[ $# -gt 0 ] || exit 0
for g; do kill -TERM -$g 2>/dev/null; done
left() { for g; do kill -0 -$g 2>/dev/null && return 0; done; return 1; }
n=0
while [ $n -lt ${graceSeconds * 10} ] && left "$@"; do sleep 0.1; n=$((n + 1)); done
for g; do kill -KILL -$g 2>/dev/null; done
`;

let graceSeconds: number | undefined;
let watcher: ChildProcess | undefined;

/** From now on, the process groups this process starts are killed when it dies, however it dies. */
export function guardChildren(graceMs: number): void {
  graceSeconds = Math.ceil(graceMs / 1000);
}

function started(): ChildProcess | undefined {
  if (graceSeconds === undefined) return undefined;
  if (watcher === undefined) {
    // Its own process group: a Ctrl-C meant for govern, or a kill of govern's group, leaves it to do its work.
    watcher = spawn('/bin/sh', ['-c', watcherScript(graceSeconds)], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    watcher.on('error', () => undefined);
    watcher.stdin!.on('error', () => undefined);
    watcher.unref();
    (watcher.stdin as unknown as { unref?(): void }).unref?.();
  }
  return watcher;
}

/**
 * Starts the watcher, if it is to be, before a child is: a child started first would be unguarded
 * while the watcher starts, and a SIGKILL of govern then would leave it running.
 */
export function readyToWatch(): void {
  started();
}

/** Whether groups started from now on are watched (guardChildren was called). */
export function watching(): boolean {
  return graceSeconds !== undefined;
}

/** A process group just started (its leader's pid); `then` once the watcher's pipe has the line. */
export function watchGroup(pgid: number | undefined, then: () => void = () => undefined): void {
  const w = pgid === undefined ? undefined : started();
  if (w === undefined) then();
  else w.stdin!.write(`+ ${pgid}\n`, () => then());
}

/** A process group that ended, or was ended: no longer the watcher's to kill. */
export function unwatchGroup(pgid: number | undefined): void {
  if (pgid !== undefined && watcher !== undefined) watcher.stdin!.write(`- ${pgid}\n`);
}

/**
 * At the end of a process that ends by itself: the watcher is told (EOF), kills what is left of the
 * groups it still knows, if any, and is waited for (at most `maxMs`), so that nothing this process
 * started, the watcher included, runs after it.
 */
export function dismissWatcher(maxMs: number): Promise<void> {
  const w = watcher;
  if (w === undefined || w.exitCode !== null || w.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxMs);
    w.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    w.stdin!.end();
  });
}
