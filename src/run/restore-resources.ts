// After a return to the last good commit (revert.ts): what the failed run changed of packages and
// services, and the good commit's run left as it was, put back as it was before (docs/rollout.md),
// each as `govern resource` would, through its runner: a package at the version it had, removed or
// changed (the pkg runner reinstalls it when the repository or the package cache still has it), a service started
// or stopped, enabled or disabled again. Read from the runners' messages of the failed run.
import { commandLineResource, planOneResource } from '../plan/one-resource.js';
import type { RunReport } from '../report/types.js';

/** One resource to put back: `pkg NAME ensure=VERSION`, `service NAME ensure=running enable=false`. */
export interface PutBack {
  runner: 'pkg' | 'service';
  name: string;
  /** The keys as `key=value` operands, and how the line names what is put back. */
  values: string[];
  what: string;
}

/** The pkg runner's messages of a real change from a version: "upgraded from 1.0-1 to 1.1-1", "uninstalled 1.0-1" (pkg/decide.ts). */
const PACKAGE_CHANGE = /^(?:(?:upgraded|downgraded) from (\S+) to \S+|uninstalled (\S+))$/;
/** The service runner's: "started; enabled" (service/decide.ts), each undone by the other. */
const UNDO: Record<string, string> = { started: 'ensure=stopped', stopped: 'ensure=running', enabled: 'enable=false', disabled: 'enable=true' };
/** A host reverts with a handful of these; past this many, the rest are left as they are. */
const MAX_PUT_BACK = 50;

/** What to put back: changed by the failed run, not changed by the good commit's run. */
export function putBacks(failed: RunReport, returned: RunReport | undefined): PutBack[] {
  const setByGood = new Set((returned?.resources ?? []).filter((r) => r.status === 'changed').map((r) => r.ref));
  const found: PutBack[] = [];
  for (const r of failed.resources) {
    if (r.status !== 'changed' || setByGood.has(r.ref)) continue;
    const [runner, name] = [r.ref.slice(0, r.ref.indexOf(':')), r.ref.slice(r.ref.indexOf(':') + 1)];
    const m = runner === 'pkg' ? PACKAGE_CHANGE.exec(r.message) : null;
    const before = m?.[1] ?? m?.[2];
    if (before !== undefined) found.push({ runner: 'pkg', name, values: [`ensure=${before}`], what: `at ${before}, its version` });
    const undo = runner === 'service' ? r.message.split('; ').map((word) => UNDO[word]) : [];
    if (undo.length > 0 && undo.every((v) => v !== undefined)) found.push({ runner: 'service', name, values: undo, what: `to ${undo.join(' ')}, as it was` });
  }
  return found.slice(0, MAX_PUT_BACK);
}

/** The run of one resource to put back, ad hoc (not the tree's run: not recorded). */
export function putBackSource(p: PutBack): { target: string; state: string; plan: ReturnType<typeof planOneResource>; adHoc: true } {
  const resource = commandLineResource([p.runner, p.name, ...p.values], 'RUNNER NAME key=value...');
  return { target: '', state: resource.ref, plan: planOneResource(resource, new Set(p.values.map((v) => v.split('=')[0]))), adHoc: true };
}
