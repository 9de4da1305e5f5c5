// The resource graph in Graphviz DOT: nodes labelled with RREFs (numbered in apply order), edges
// labelled by kind.
import type { Plan } from './plan.js';

function quoteDot(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function toDot(plan: Plan): string {
  const lines = ['digraph govern {', '  rankdir=LR;', '  node [shape=box];'];
  plan.order.forEach((ref, i) => lines.push(`  ${quoteDot(ref)} [label=${quoteDot(`${i + 1}. ${ref}`)}];`));
  for (const e of plan.graph.edges()) lines.push(`  ${quoteDot(e.v)} -> ${quoteDot(e.w)} [label=${quoteDot(String(plan.graph.edge(e)))}];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}
