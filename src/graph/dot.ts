// The resource graph in Graphviz DOT: nodes labelled with RREFs (numbered in apply order), edges
// labelled by kind; resources left out of the selection (--tags) dashed and grey; the resources of
// each module instance drawn together in a cluster.
import { terminalText } from '../shared/terminal-text.js';
import type { ResourceGraph } from './resource-graph.js';

/** What quoteDot changes: control and format characters (terminal-text.ts), quotes, backslashes. */
const CHANGED = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"\\]/;

/** A DOT string; other control characters shown escaped, as in every text govern prints. */
function quoteDot(text: string): string {
  // Most refs hold none of them: four passes over each of 24,000 strings for a 10,000-resource graph.
  if (!CHANGED.test(text)) return `"${text}"`;
  return `"${terminalText(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function toDot(plan: ResourceGraph, selected?: ReadonlySet<string>): string {
  const lines = ['digraph govern {', '  rankdir=LR;', '  node [shape=box];'];
  const clusters = new Map<string, string[]>();
  plan.order.forEach((ref, i) => {
    const excluded = selected && !selected.has(ref) ? ', style=dashed, color=gray, fontcolor=gray' : '';
    const node = `${quoteDot(ref)} [label=${quoteDot(`${i + 1}. ${ref}`)}${excluded}];`;
    const module = plan.byRef.get(ref)?.module;
    if (!module) lines.push(`  ${node}`);
    else {
      const key = module.instance === module.source ? module.instance : `${module.instance} (${module.source})`;
      clusters.set(key, [...(clusters.get(key) ?? []), node]);
    }
  });
  [...clusters.entries()].forEach(([label, nodes], i) => {
    lines.push(`  subgraph ${quoteDot(`cluster_${i}`)} {`, `    label=${quoteDot(`module ${label}`)};`, ...nodes.map((node) => `    ${node}`), '  }');
  });
  for (const e of plan.graph.edges()) lines.push(`  ${quoteDot(e.v)} -> ${quoteDot(e.w)} [label=${quoteDot(String(plan.graph.edge(e)))}];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}
