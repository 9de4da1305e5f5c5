// `govern render TEMPLATE`: renders one template to stdout, to check templates and facts.
import { UserError } from '../../shared/errors.js';
import { locateTemplate } from '../../templates/locate.js';
import { renderTemplates } from '../../templates/render.js';
import { readSourceFile } from '../../templates/source-file.js';
import { out, type Command } from '../command.js';
import { factsOptions, helpOption, localFacts, searchPaths, templatesOptions } from '../common-options.js';
import { remoteFactOptions, remoteFacts } from '../remote-options.js';

export const renderCommand: Command = {
  name: 'render',
  usage: 'govern render TEMPLATE',
  summary: 'render a template (a path, or a name in the templates directories) to stdout',
  options: [...templatesOptions, ...factsOptions, ...remoteFactOptions, helpOption],
  async run(args) {
    if (args.positional.length !== 1) throw new UserError(`usage: ${this.usage}`);
    const paths = searchPaths(args);
    const file = locateTemplate(args.positional[0], paths.templates);
    const source = readSourceFile(file);
    const [text] = await renderTemplates([{ file, source }], { local: localFacts(args, paths), remote: remoteFacts(args) });
    await out(text);
    return 0;
  },
};
