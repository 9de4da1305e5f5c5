// The last step of a real run when a fleet is configured: publish, then record what became of it.
// A failure is a warning and a count, never the run's failure: the run is over and recorded by now.
import type { LocalFacts } from '../facts/local-facts.js';
import type { RunReport } from '../report/types.js';
import { checkHostKey } from './buckets.js';
import { hostRun, publishableFacts } from './host-record.js';
import { publishHost, type PublishOutcome } from './publish.js';
import { withRolloutFields } from './rollout-fields.js';
import { nextPublishRecord, readPublishRecord, writePublishRecord } from './publish-record.js';
import type { FleetSettings } from './settings.js';

export interface AfterRun {
  settings: FleetSettings;
  /** --fleet-name; else the report's host (the fqdn fact). */
  name?: string;
  report: RunReport;
  /**
   * The host's facts, published beside the run; undefined for a run that was interrupted: govern
   * starts no process after an interruption, so its executable facts could be missing, and a host
   * that lost its `role` in the inventory would drop out of its balancers. Its last facts stay.
   */
  facts?: Pick<LocalFacts, 'names' | 'load' | 'peek'>;
  varDir: string;
  metricsFile?: string;
}

export async function publishAfterRun(a: AfterRun, warn: (text: string) => void): Promise<PublishOutcome> {
  const outcome = await attempt(a);
  if (!outcome.ok) warn(`the run was not published to the fleet: ${outcome.error}`);
  else if (outcome.index !== undefined) warn(`the fleet's index of this host was not kept (its run and facts were published): ${outcome.index}`);
  for (const problem of writePublishRecord(a.varDir, nextPublishRecord(readPublishRecord(a.varDir), outcome, new Date()), a.metricsFile)) warn(problem);
  return outcome;
}

async function attempt(a: AfterRun): Promise<PublishOutcome> {
  const start = Date.now();
  try {
    const host = checkHostKey(a.name ?? a.report.host);
    // The facts are read (most already are, from planning) before the clock of the publish starts.
    const facts = a.facts === undefined ? undefined : { format: 1 as const, host, at: new Date().toISOString(), facts: await publishableFacts(a.facts) };
    return await publishHost(a.settings, withRolloutFields(hostRun(host, a.report), a.varDir, facts?.facts), facts);
  } catch (e) {
    return { ok: false, ms: Date.now() - start, error: (e as Error).message };
  }
}
