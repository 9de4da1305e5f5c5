// Signals runners asked for during the apply phase, sent after the notifications. A runner that
// leaves work for later in the run (the unit runner's daemon-reload, which the next service of its
// scope runs) writes a request in GOVERN_RUN_DIR/notify/ naming a resource of its own and a signal;
// it removes the request when the work is done meanwhile. What is left at the end is sent once, as
// a notification from the resource to itself, so that nothing is left undone when the run ends.
import fs from 'node:fs';
import path from 'node:path';
import type { KnownRunner } from '../describe/describe-runner.js';
import type { ResourceGraph } from '../graph/resource-graph.js';
import type { PendingNotification } from '../report/build.js';
import type { ResourceReport } from '../report/types.js';
import { RUN_END_REQUESTS } from '../shared/protocol.js';

/**
 * The requests left in the run's directory, each a file of two lines: the RREF, then the signal.
 * Only a resource of the run that changed, with a signal its runner accepts, is sent one; the same
 * (resource, signal) once, in apply order.
 */
export function runEndRequests(runDir: string, plan: ResourceGraph, reports: ReadonlyMap<string, ResourceReport>, runners: Map<string, KnownRunner>): PendingNotification[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(runDir, RUN_END_REQUESTS)).sort();
  } catch {
    return [];
  }
  const wanted = new Map<string, PendingNotification>();
  for (const name of names) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(runDir, RUN_END_REQUESTS, name), 'utf8');
    } catch {
      continue; // withdrawn while read
    }
    const [to, signal] = text.split('\n');
    const resource = plan.byRef.get(to);
    const signals = resource && runners.get(resource.type)?.description?.signals;
    if (!resource || reports.get(to)?.status !== 'changed' || !signal || (signals !== undefined && !signals.includes(signal))) continue;
    wanted.set(JSON.stringify([to, signal]), { from: [to], to, signal });
  }
  const position = new Map(plan.order.map((ref, i) => [ref, i]));
  return [...wanted.values()].sort((a, b) => position.get(a.to)! - position.get(b.to)!);
}
