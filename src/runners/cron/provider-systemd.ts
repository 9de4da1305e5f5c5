// The cron runner's systemd provider (provider = "systemd"): the timer's state and its changes with
// systemctl, and one daemon-reload after its units changed (the unit runner's, so a reload an
// earlier unit left pending in the run is the same one). The units are written whole through
// lib/whole-file, as every runner's file (timer.ts).
import type { ProviderContext } from '../../shared/command-runner.js';
import { ServiceNotFound } from '../lib/init-system.js';
import { reloadIfPending, unitChanged, unitWouldChange } from '../lib/systemd/daemon-reload.js';
import { systemdProvider } from '../lib/systemd/systemctl.js';
import type { SystemdScope } from '../lib/systemd/unit-directory.js';

export type TimerAction = 'enable' | 'start' | 'restart' | 'stop' | 'disable';

export interface CronTimerProvider {
  /** Whether the timer is running and enabled; one systemd does not know (its unit not written or not read yet) is neither. */
  status(timer: string): Promise<{ running: boolean; enabled: boolean }>;
  change(action: TimerAction, timer: string): Promise<void>;
  /** The units changed: left pending in the run (`runDir`), then run at once, so that with the units an earlier resource changed there is one reload. */
  unitsChanged(runDir: string | undefined): Promise<void>;
  /** In noop mode: the units would have changed (a service's status may not show it yet). */
  unitsWouldChange(runDir: string | undefined): void;
}

export function systemdTimerProvider(context: ProviderContext, scope: SystemdScope): CronTimerProvider {
  const systemd = systemdProvider(context, scope);
  return {
    async status(timer) {
      try {
        return await systemd.status(timer);
      } catch (e) {
        if (e instanceof ServiceNotFound) return { running: false, enabled: false };
        throw e;
      }
    },
    change: (action, timer) => systemd[action](timer),
    async unitsChanged(runDir) {
      await unitChanged(runDir, scope, context);
      await reloadIfPending(runDir, scope, context);
    },
    unitsWouldChange: (runDir) => unitWouldChange(runDir, scope),
  };
}
