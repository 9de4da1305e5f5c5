// `govern graph PATH`: the resource graph in Graphviz DOT.
import { toDot } from '../../graph/dot.js';
import { out, type Command } from '../command.js';
import { factsOptions, helpOption, runnersOptions, templatesOptions } from '../common-options.js';
import { cacheOptions, planFromArgs } from '../planning.js';
import { remoteFactOptions } from '../remote-options.js';

export const graphCommand: Command = {
  name: 'graph',
  usage: 'govern graph PATH',
  summary: 'print the resource graph of a state tree in Graphviz DOT (numbered in apply order)',
  details: 'Render it with: govern graph states/ | dot -Tsvg > graph.svg',
  options: [...runnersOptions, ...factsOptions, ...templatesOptions, ...remoteFactOptions, ...cacheOptions, helpOption],
  async run(args) {
    const { plan } = await planFromArgs(args, this.usage);
    await out(toDot(plan));
    return 0;
  },
};
