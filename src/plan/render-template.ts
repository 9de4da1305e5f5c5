// `govern render TEMPLATE`: one template rendered as `govern run` renders it. A state file (*.hcl)
// as a state file; any other template as a file's `template`, with its variables and partials.
// Either reads the data of the tree it belongs to, decrypted as in a run.
import path from 'node:path';
import { TREE_DIRS, treeRoot, type SearchPaths } from '../config/paths.js';
import { revealWith } from '../secrets/reveal.js';
import { UserError } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { readSourceFile } from '../shared/source-file.js';
import { ATTRIBUTE_KEY } from '../shared/validate.js';
import { MODULES_DIR } from '../state/modules/declarations.js';
import { moduleNames } from '../state/modules/module-tree.js';
import type { FactSources } from '../templates/fact-sources.js';
import { locateTemplate, partialLookup } from '../templates/locate.js';
import { renderTemplates } from '../templates/render.js';
import { readTreeData } from './data.js';
import { treeSearchPaths, type GivenDirs } from './tree-paths.js';

export interface RenderSettings {
  /** A path, or a name in the templates directories. */
  template: string;
  dirs: GivenDirs;
  /** `--var KEY=VALUE`, over `--vars-json`. */
  vars: string[];
  varsJson?: string;
  identity?: string;
  /** The fact sources, for the search paths of the template's tree. */
  sources(paths: SearchPaths): FactSources;
}

export async function renderOneTemplate(s: RenderSettings): Promise<string> {
  const { root, module } = templateTree(s.template);
  const treePaths = treeSearchPaths(s.dirs, root);
  const paths = module ? { ...treePaths, templates: [path.join(module, TREE_DIRS.templates), ...treePaths.templates] } : treePaths;
  const file = locateTemplate(s.template, paths.templates);
  const source = readSourceFile(file);
  const vars = templateVars(s.vars, s.varsJson);
  const stateFile = file.endsWith('.hcl');
  if (stateFile && Object.keys(vars).length > 0) throw new UserError(`${file} is a state file, which has no variables: --var and --vars-json are for the templates of files`);
  const input = stateFile ? { file, source } : { file, source, vars, partials: partialLookup(paths.templates, root) };
  const sources = s.sources(paths);
  // hierarchy.hcl is rendered from facts alone first (a {{data}} in it is an error there, as in govern run).
  const data = await readTreeData(root, sources);
  data?.revealValues(revealWith(s.identity));
  const [text] = await renderTemplates([input], { ...sources, data });
  return text;
}

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
