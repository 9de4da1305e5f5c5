// `govern render TEMPLATE`: renders one template to stdout, to check templates and facts. A state
// file (*.hcl) renders as `govern run` renders it; any other template as a file's `template` does,
// with the variables given by --var and --vars-json, and its partials. Either reads the data of the
// tree it belongs to, as in `govern run`.
import path from 'node:path';
import { TREE_DIRS, treeRoot } from '../../config/paths.js';
import { revealWith } from '../../secrets/reveal.js';
import { UserError } from '../../shared/errors.js';
import type { AttrValue } from '../../shared/protocol.js';
import { ATTRIBUTE_KEY } from '../../shared/validate.js';
import { MODULES_DIR } from '../../state/modules/declarations.js';
import { moduleNames } from '../../state/modules/module-tree.js';
import { locateTemplate, partialLookup } from '../../templates/locate.js';
import { renderTemplates } from '../../templates/render.js';
import { readSourceFile } from '../../shared/source-file.js';
import { described } from '../command-names.js';
import { defineCommand, theOperand } from '../command.js';
import { out } from '../../output/writers.js';
import { factsOptions, helpOptions, identityOptions, localFacts, templatesOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { factSources, inventoryOptions } from '../inventory-options.js';
import { remoteFactOptions } from '../remote-options.js';
import { readTreeData } from '../../plan/data.js';
import { treeSearchPaths } from '../tree-data.js';

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
    const name = theOperand(operands, this.usage, 'TEMPLATE');
    const { root, module } = templateTree(name);
    const treePaths = treeSearchPaths(o, root);
    const paths = module ? { ...treePaths, templates: [path.join(module, TREE_DIRS.templates), ...treePaths.templates] } : treePaths;
    const file = locateTemplate(name, paths.templates);
    const source = readSourceFile(file);
    const vars = templateVars(o.var, o.varsJson);
    const stateFile = file.endsWith('.hcl');
    if (stateFile && Object.keys(vars).length > 0) throw new UserError(`${file} is a state file, which has no variables: --var and --vars-json are for the templates of files`);
    const input = stateFile ? { file, source } : { file, source, vars, partials: partialLookup(paths.templates) };
    const sources = factSources(o, localFacts(o, paths));
    // hierarchy.hcl is rendered from facts alone first (a {{data}} in it is an error there, as in govern run).
    const data = await readTreeData(root, sources);
    data?.revealValues(revealWith(o.identity));
    const [text] = await renderTemplates([input], { ...sources, data });
    await out(text);
    return 0;
  },
});

/**
 * The state tree a template belongs to: the tree holding it in its templates.d/ (so that its partials
 * are found as `govern run` finds them), else its own directory; a name that is not a path has none.
 * A module's file (ROOT/modules/NAME/...) belongs to ROOT, the tree whose data and facts it is
 * rendered with in `govern run`, and to its module, whose templates.d/ is searched first.
 */
function templateTree(name: string): { root?: string; module?: string } {
  const at = path.resolve(name).lastIndexOf(`${path.sep}${TREE_DIRS.templates}${path.sep}`);
  const dir = at >= 0 ? path.resolve(name).slice(0, at) || '/' : treeRoot(name);
  if (dir === undefined) return {};
  const above = path.dirname(path.resolve(dir));
  const inModules = path.basename(above) === MODULES_DIR && moduleNames(path.dirname(above)).includes(path.basename(dir));
  return inModules ? { root: path.dirname(above), module: dir } : { root: dir };
}

/** --vars-json, then each --var over it; every problem at once. */
function templateVars(pairs: string[], json: string | undefined): { [key: string]: AttrValue } {
  const problems: string[] = [];
  let vars: { [key: string]: AttrValue } = {};
  if (json !== undefined) {
    try {
      const parsed = JSON.parse(json) as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) problems.push('--vars-json must be a JSON object ({"port": 80})');
      else vars = parsed as { [key: string]: AttrValue };
    } catch (e) {
      problems.push(`--vars-json is not valid JSON: ${(e as Error).message}`);
    }
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, Math.max(eq, 0));
    if (eq < 0 || !ATTRIBUTE_KEY.test(key)) problems.push(`--var ${JSON.stringify(pair)} is not KEY=VALUE (a key is letters, digits, _ and -)`);
    else vars[key] = pair.slice(eq + 1);
  }
  if (problems.length > 0) throw new UserError(problems.map((message) => ({ message })));
  return vars;
}
