// The unit provider: systemctl daemon-reload after a unit changed, once per run however many changed
// (lib/systemd/daemon-reload.ts: left pending in the run for the service runner or the run's end).
// The unit file is written whole through lib/whole-file, as every runner's file.
import type { ProviderContext } from '../../shared/command-runner.js';
import { reloadIfPending, unitChanged, unitWouldChange } from '../lib/systemd/daemon-reload.js';
import type { SystemdScope } from '../lib/systemd/unit-directory.js';

export interface UnitProvider {
  /** A unit of `scope` changed: the reload pending in the run (`runDir`), or done at once outside one. */
  changed(runDir: string | undefined, scope: SystemdScope, resource: string): Promise<'pending' | 'reloaded'>;
  /** In noop mode: a unit of `scope` would have changed (a service's status may not show it yet). */
  wouldChange(runDir: string | undefined, scope: SystemdScope): void;
  /** The reload left pending in the run, if no service ran it: whether it ran. */
  reloadIfPending(runDir: string | undefined, scope: SystemdScope): Promise<boolean>;
}

export function systemdUnitProvider(context: ProviderContext): UnitProvider {
  return {
    changed: (runDir, scope, resource) => unitChanged(runDir, scope, context, resource),
    wouldChange: unitWouldChange,
    reloadIfPending: (runDir, scope) => reloadIfPending(runDir, scope, context),
  };
}
