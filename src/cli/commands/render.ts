// `govern render TEMPLATE`: renders one template to stdout, to check templates and facts.
import fs from 'node:fs';
import { treeRoot } from '../../config/paths.js';
import { locateTemplate } from '../../templates/locate.js';
import { renderTemplates } from '../../templates/render.js';
import { defineCommand, out, theOperand } from '../command.js';
import { factsOptions, helpOptions, localFacts, searchPaths, templatesOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';

export const renderCommand = defineCommand({
  name: 'render',
  usage: 'govern render [OPTIONS] TEMPLATE',
  summary: 'render a template (a path, or a name in the templates directories) to stdout',
  details:
    "A template given by path is rendered with its own directory's facts.d/ and templates.d/ searched\n" +
    'first, as govern run searches a state tree\'s: `govern render states/web.hcl` shows what run parses.',
  options: optionTable([...templatesOptions, ...factsOptions, ...remoteFactOptions, ...helpOptions]),
  async run(o, operands) {
    const name = theOperand(operands, this.usage, 'TEMPLATE');
    const paths = searchPaths(o, treeRoot(name)); // a name that is not a path has no tree
    const file = locateTemplate(name, paths.templates);
    const source = fs.readFileSync(file, 'utf8');
    const [text] = await renderTemplates([{ file, source }], { local: localFacts(o, paths), remote: remoteFacts(o) });
    await out(text);
    return 0;
  },
});
