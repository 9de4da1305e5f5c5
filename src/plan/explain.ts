// `govern plan --explain RREF[/KEY]`: one resource of the plan, each value with its origins.
import path from 'node:path';
import { treeRoot } from '../config/paths.js';
import type { Snapshot } from '../facts/snapshot.js';
import { explainResource, formatExplain, type FactLookup } from '../preview/explain.js';
import { moduleOrigin, pathsFrom } from '../preview/explain-composed.js';
import { locationText } from '../preview/view.js';
import { PhaseClock } from '../report/timing.js';
import { UserError } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import { snapshotSettings } from './hosts.js';
import { planTree } from './plan-tree.js';
import type { PreviewHosts } from './preview-hosts.js';
import type { PlanSettings } from './settings.js';

export async function explainPlanned(inputs: PlanSettings, what: string, snapshot: Snapshot | undefined, json: boolean): Promise<string> {
  const { plan, data } = await planTree(inputs, new PhaseClock());
  // An RREF may hold "/" (file:/etc/motd): the whole text is a resource, or RREF/KEY.
  const slash = what.lastIndexOf('/');
  const whole = plan.byRef.get(what);
  const resource = whole ?? (slash > 0 ? plan.byRef.get(what.slice(0, slash)) : undefined);
  if (!resource) throw new UserError(`--explain ${what}: no such resource in the plan${didYouMean(what, new Set(plan.byRef.keys()))}`);
  const key = whole ? undefined : what.slice(slash + 1);
  const root = path.resolve(treeRoot(inputs.target) ?? path.dirname(inputs.target));
  const facts: FactLookup = {
    value: (name, host) => {
      const result = host === undefined ? inputs.sources.local.peek(name) : inputs.sources.remote?.peek(host, name);
      return result?.ok ? result.value : undefined;
    },
    from: (host) => (host === undefined ? (snapshot ? snapshot.source : `this host's facts (${inputs.paths.facts.join(':')})`) : otherHostFrom(inputs, host, snapshot)),
  };
  const origins = explainResource(resource, key, root, facts, data);
  const at = locationText(resource.at, root);
  const module = moduleOrigin(resource.module, pathsFrom(root));
  return json ? JSON.stringify({ ref: resource.ref, at, ...(module ? { module } : {}), keys: origins }, null, 2) + '\n' : formatExplain(resource.ref, at, origins, module);
}

/** Where `hostfact` read another host: its snapshot beside this one, the fleet's inventory, or ssh. */
function otherHostFrom(inputs: PlanSettings, host: string, snapshot: Snapshot | undefined): string {
  if (snapshot?.file !== undefined) return path.join(path.dirname(snapshot.file), `${host}.json`);
  if (inputs.sources.inventory === undefined || inputs.hostfactSource === 'ssh') return `host ${host}, over ssh`;
  return `host ${host} in the fleet's inventory at ${inputs.fleetUrl}${inputs.hostfactSource === 'fleet-then-ssh' ? ' (or over ssh)' : ''}`;
}

/** `govern plan --explain` for the one host of `hosts` (this one when undefined); `facts`: where the snapshots are, for the message. */
export async function explainForHost(settings: () => PlanSettings, what: string, hosts: PreviewHosts | undefined, facts: string | undefined, json: boolean): Promise<string> {
  const snapshots = hosts?.snapshots;
  if (snapshots && snapshots.length > 1) throw new UserError(`--explain plans for one host: give --host NAME (snapshots in ${facts}: ${snapshots.map((s) => s.host).join(', ')})`);
  const snapshot = snapshots?.[0];
  const inputs = snapshot ? snapshotSettings(settings(), snapshot, hosts?.others) : settings();
  return explainPlanned(inputs, what, snapshot, json);
}
