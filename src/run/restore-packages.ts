// After a return to the last good commit (revert.ts): the packages the failed run upgraded or
// downgraded, and the good commit's run left as they were, put back at the version they had before
// (docs/rollout.md), each as `govern resource pkg NAME ensure=VERSION` would, through the pkg
// runner: it reinstalls the version when the repository or the package cache still has it.
import { commandLineResource, planOneResource } from '../plan/one-resource.js';
import type { RunReport } from '../report/types.js';

export interface PackageBefore {
  name: string;
  version: string;
}

/** The pkg runner's message of a real change: "upgraded from 1.0-1 to 1.1-1" (pkg/decide.ts). */
const CHANGE = /^(?:upgraded|downgraded) from (\S+) to (\S+)$/;
/** A host reverts with a handful of packages changed; past this many, the rest are left as they are. */
const MAX_PACKAGES = 50;

/** The packages to put back: changed by the failed run, not changed by the good commit's run. */
export function packagesBefore(failed: RunReport, returned: RunReport | undefined): PackageBefore[] {
  const setByGood = new Set((returned?.resources ?? []).filter((r) => r.status === 'changed').map((r) => r.ref));
  const found: PackageBefore[] = [];
  for (const r of failed.resources) {
    const m = r.status === 'changed' && r.ref.startsWith('pkg:') ? CHANGE.exec(r.message) : null;
    if (m && !setByGood.has(r.ref)) found.push({ name: r.ref.slice('pkg:'.length), version: m[1] });
  }
  return found.slice(0, MAX_PACKAGES);
}

/** The run of one package at its version before, as an ad hoc resource (not the tree's run: not recorded). */
export function packageSource(p: PackageBefore): { target: string; state: string; plan: ReturnType<typeof planOneResource>; adHoc: true } {
  const operands = ['pkg', p.name, `ensure=${p.version}`];
  const resource = commandLineResource(operands, 'pkg NAME ensure=VERSION');
  return { target: '', state: resource.ref, plan: planOneResource(resource, new Set(['ensure'])), adHoc: true };
}
