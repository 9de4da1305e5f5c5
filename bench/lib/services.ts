// The workload's services: tiny sysv init scripts (LSB header, start-stop-daemon running
// `sleep infinity`). The harness installs, enables and starts them before the runs, so every tool
// finds them running and enabled, and removes them afterwards (see harness.ts).
/** Marks scripts the benchmark wrote: cleanup never removes an init script without it. */
export const MARKER = '# govern-bench: benchmark service, removed by bench/run.js';

export function initScript(name: string): string {
  return `#!/bin/sh
### BEGIN INIT INFO
# Provides:          ${name}
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: govern benchmark service (sleeps)
### END INIT INFO
${MARKER}
PIDFILE=/run/${name}.pid
case "$1" in
  start) start-stop-daemon --start --quiet --oknodo --background --make-pidfile --pidfile "$PIDFILE" --exec /usr/bin/sleep -- infinity ;;
  stop) start-stop-daemon --stop --quiet --oknodo --retry 5 --remove-pidfile --pidfile "$PIDFILE" --exec /usr/bin/sleep ;;
  restart|force-reload) "$0" stop && "$0" start ;;
  status) start-stop-daemon --status --pidfile "$PIDFILE" --exec /usr/bin/sleep ;;
  *) echo "Usage: $0 {start|stop|restart|force-reload|status}" >&2; exit 3 ;;
esac
`;
}
