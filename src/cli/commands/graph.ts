// `govern graph PATH`: the resource graph in Graphviz DOT, planned exactly as `govern run` plans it.
import { defaultStateTree } from '../../config/paths.js';
import { toDot } from '../../graph/dot.js';
import { pulledTree } from '../../pull/store.js';
import { PhaseClock } from '../../report/timing.js';
import { described } from '../command-names.js';
import { defineCommand, treeOperand } from '../command.js';
import { out } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { planTree } from '../../plan/plan-tree.js';
import { planningOptions, planSettings } from '../planning-options.js';

export const graphCommand = defineCommand({
  ...described('graph'),
  details:
    'Render it with: govern graph states/ | dot -Tsvg > graph.svg\n' +
    'Takes the planning options of govern run; resources left out by --tags or --skip-tags are drawn dashed.\n' +
    `Without PATH, the state tree govern run applies without one: ${defaultStateTree()}.`,
  options: optionTable([...planningOptions, ...helpOptions]),
  async run(o, operands) {
    const target = treeOperand(operands, this.usage);
    const { plan, selected } = await planTree(planSettings(pulledTree(target)?.path ?? target, o), new PhaseClock());
    await out(toDot(plan, selected));
    return 0;
  },
});
