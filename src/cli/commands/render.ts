// `govern render TEMPLATE`: renders one template to stdout, to check templates and facts. A state
// file (*.hcl) renders as `govern run` renders it; any other template as a file's `template` does,
// with the variables given by --var and --vars-json, and its partials. Either reads the data of the
// tree it belongs to, as in `govern run`.
import { described } from '../command-names.js';
import { defineCommand, theOperand } from '../command.js';
import { out } from '../../output/writers.js';
import { factsOptions, helpOptions, identityOptions, localFacts, templatesOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { factSources, inventoryOptions } from '../inventory-options.js';
import { remoteFactOptions } from '../remote-options.js';
import { renderOneTemplate } from '../../plan/render-template.js';

const varsOptions = optionTable([
  { name: 'var', kind: 'texts', placeholder: 'KEY=VALUE', help: "a variable of the template (a string); a file resource's vars give the same" },
  { name: 'vars-json', kind: 'text', placeholder: 'JSON', help: 'variables as a JSON object, for numbers, lists and maps: \'{"port": 80, "hosts": ["a", "b"]}\'' },
]);

export const renderCommand = defineCommand({
  ...described('render'),
  details:
    "A template given by path is rendered with its own directory's facts.d/ and templates.d/ searched\n" +
    'first, as govern run searches a state tree\'s: `govern render states/web.hcl` shows what run parses.\n' +
    'Any other template renders as a file resource\'s template does: with variables (--var, --vars-json)\n' +
    'and partials ({{> name}}) from the templates directories. A template of a module (under\n' +
    "modules/NAME/) belongs to the tree above modules/, with the module's templates.d/ searched first.\n" +
    "{{data}} reads the data of the template's tree (its hierarchy.hcl), decrypted as govern run does.",
  options: optionTable([...varsOptions, ...templatesOptions, ...factsOptions, ...identityOptions, ...remoteFactOptions, ...inventoryOptions, ...helpOptions]),
  async run(o, operands) {
    const template = theOperand(operands, this.usage, 'TEMPLATE');
    const text = await renderOneTemplate({ template, dirs: o, vars: o.var, varsJson: o.varsJson, identity: o.identity, sources: (paths) => factSources(o, localFacts(o, paths)) });
    await out(text);
    return 0;
  },
});
