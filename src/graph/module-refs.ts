// References to a whole module instance (docs/modules.md): `after = ["module:shop"]` orders after
// every resource of the instance, `notify = ["module:shop:restart"]` notifies each of its resources
// that accepts the signal (`module:shop` alone: `refresh`). They become references to the
// resources themselves before the graph is built.
import type { Problem } from '../shared/errors.js';
import { didYouMean } from '../shared/suggest.js';
import { MODULE_REF } from '../state/modules/declarations.js';
import { keyLocation, ORDERING_KEYS, type OrderingKey, type Resource } from '../state/resource.js';

/** The resources with their `module:` references replaced; unchanged resources are the same objects. */
export function expandModuleRefs(resources: Resource[], refuseSignal: (to: Resource, signal: string) => string | undefined = () => undefined): { resources: Resource[]; problems: Problem[] } {
  const members = new Map<string, Resource[]>();
  // An instance's resources include those of the instances it declares (a module in a module).
  for (const r of resources) {
    for (let m = r.module; m; m = m.within) members.set(m.instance, [...(members.get(m.instance) ?? []), r]);
  }
  const problems: Problem[] = [];
  const out = resources.map((r) => {
    if (!ORDERING_KEYS.some((key) => r.links[key].some((text) => text.startsWith(MODULE_REF)))) return r;
    const links = { ...r.links };
    for (const key of ORDERING_KEYS) {
      links[key] = r.links[key].flatMap((text) => {
        if (!text.startsWith(MODULE_REF)) return [text];
        const rest = text.slice(MODULE_REF.length);
        const colon = rest.indexOf(':');
        const instance = colon < 0 ? rest : rest.slice(0, colon);
        const signal = colon < 0 ? undefined : rest.slice(colon + 1);
        const problem = (message: string) => problems.push({ ...keyLocation(r, key), message: `${r.ref}: ${key} "${text}": ${message}` });
        const of = members.get(instance);
        if (!of) {
          problem(`no module instance "${instance}" declares resources in this tree${didYouMean(instance, members.keys())}`);
          return [];
        }
        const others = of.filter((m) => m !== r);
        if (key !== 'notify') {
          if (signal === undefined) return others.map((m) => m.ref);
          problem(`a signal is for notify; ${key} names the instance alone, "${MODULE_REF}${instance}"`);
          return [];
        }
        const sent = signal ?? 'refresh';
        const accepting = others.filter((m) => refuseSignal(m, sent) === undefined);
        if (accepting.length === 0) problem(`no resource of module "${instance}" accepts the signal "${sent}"`);
        return accepting.map((m) => `${m.ref}:${sent}`);
      });
    }
    return { ...r, links: links as Record<OrderingKey, string[]> };
  });
  return { resources: out, problems };
}
