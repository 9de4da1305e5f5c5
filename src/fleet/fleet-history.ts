// `govern fleet history HOST`: one connection, the host's last runs read and printed (run-history.ts,
// history-view.ts). Exit status 0 when a run is known, 1 when none is.
import { historyJson, historyTable } from './history-view.js';
import { withFleet } from './read-fleet.js';
import { hostHistory, MAX_READ } from './run-history.js';
import type { FleetSettings } from './settings.js';

export function fleetHistory(settings: FleetSettings, o: { host: string; limit: number; json: boolean }, out: (text: string) => Promise<void>): Promise<number> {
  return withFleet(settings, 'govern fleet history', async (nc) => {
    const h = await hostHistory(nc, o.host, Math.min(o.limit, MAX_READ), settings.timeoutMs);
    await out(o.json ? historyJson(h) : historyTable(h));
    return h.entries.some((e) => e.run !== undefined) ? 0 : 1;
  });
}
