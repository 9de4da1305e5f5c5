// One `systemctl daemon-reload` per run, however many units changed, and only when one did. The unit
// runner leaves it pending in the run's directory (GOVERN_RUN_DIR, which govern makes for each run
// and removes after it); the service runner runs it before it checks a service of that scope, so
// the service is checked and started with its new unit. A reload no service ran is asked of the
// unit runner at the end of the run (a run-end request, src/apply/run-end.ts), so systemd never
// keeps a stale unit. A unit changed by hand (no run directory) is reloaded at once.
import fs from 'node:fs';
import path from 'node:path';
import { act, type ProviderContext } from '../../../shared/command-runner.js';
import { RUN_END_REQUESTS } from '../../../shared/protocol.js';
import type { SystemdScope } from './unit-directory.js';

/** A daemon-reload that hangs is killed after this long. */
const RELOAD_TIMEOUT_MS = 300_000;

export function daemonReloadArgv(scope: SystemdScope): string[] {
  return ['systemctl', ...(scope === 'user' ? ['--user'] : []), '--no-ask-password', 'daemon-reload'];
}

function marker(runDir: string | undefined, scope: SystemdScope, noop = false): string | undefined {
  if (!runDir || !path.isAbsolute(runDir) || !fs.existsSync(runDir)) return undefined;
  return path.join(runDir, 'unit', `${noop ? 'noop-' : ''}daemon-reload-${scope}`);
}

/** In noop mode: a unit of this scope would have changed, so a service's status may not show it yet. */
export function unitWouldChange(runDir: string | undefined, scope: SystemdScope): void {
  const file = marker(runDir, scope, true);
  if (file === undefined) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
}

/** Whether a unit of this scope would have changed earlier in this noop run. */
export function unitsWouldChange(runDir: string | undefined, scope: SystemdScope): boolean {
  const file = marker(runDir, scope, true);
  return file !== undefined && fs.existsSync(file);
}

/** The run-end request that has `resource` (an RREF) refreshed when no service ran the reload. */
function runEndRequest(runDir: string, scope: SystemdScope): string {
  return path.join(runDir, RUN_END_REQUESTS, `unit-daemon-reload-${scope}`);
}

/**
 * After a unit of this scope changed: the reload pending for the run (and `resource`, the unit's
 * RREF, to be refreshed at its end should no service run it), or run now outside a run.
 */
export async function unitChanged(runDir: string | undefined, scope: SystemdScope, context: ProviderContext, resource?: string): Promise<'pending' | 'reloaded'> {
  const file = marker(runDir, scope);
  if (file === undefined) {
    await act(context, daemonReloadArgv(scope), { timeoutMs: RELOAD_TIMEOUT_MS });
    return 'reloaded';
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  if (resource !== undefined) {
    const request = runEndRequest(runDir!, scope);
    fs.mkdirSync(path.dirname(request), { recursive: true });
    fs.writeFileSync(request, `${resource}\nrefresh\n`);
  }
  return 'pending';
}

/**
 * Runs the daemon-reload a unit of this scope left pending in this run, if any, and clears it; a
 * failed reload stays pending (and fails the caller).
 */
export async function reloadIfPending(runDir: string | undefined, scope: SystemdScope, context: ProviderContext): Promise<boolean> {
  const file = marker(runDir, scope);
  if (file === undefined || !fs.existsSync(file)) return false;
  await act(context, daemonReloadArgv(scope), { timeoutMs: RELOAD_TIMEOUT_MS });
  fs.rmSync(file, { force: true });
  fs.rmSync(runEndRequest(runDir!, scope), { force: true });
  return true;
}
