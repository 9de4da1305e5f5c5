// Module expansion, in the state phase: the tree's instances (its `module` blocks, and the modules
// its data key `modules` lists) become the rendered state files of their modules, each file rendered
// once per instance with the instance's parameters as its variables (docs/modules.md). The resources
// parsed from them remember their instance (Resource.module).
import type { TreeData } from '../../data/lookup.js';
import { MODULES_KEY } from '../../data/hierarchy.js';
import { UserError, formatLocation, type Location, type Problem } from '../../shared/errors.js';
import { didYouMean } from '../../shared/suggest.js';
import type { AttrValue } from '../../shared/protocol.js';
import type { FactUse } from '../../templates/fact-helpers.js';
import type { FactSources } from '../../templates/fact-sources.js';
import { variableLines } from '../../templates/engine.js';
import { renderWithLines, type TemplateInput } from '../../templates/render.js';
import type { StateFileText } from '../load.js';
import type { InstanceDecl, ModuleMembership } from './declarations.js';
import { moduleNames, readModule, type ModuleSource } from './module-tree.js';
import { resolveParams } from './params.js';

export interface Expansion {
  texts: StateFileText[];
  instances: InstanceDecl[];
  problems: Problem[];
}

/** An instance's name, as `module:NAME` references it. */
const INSTANCE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

export async function expandModules(root: string | undefined, declared: InstanceDecl[], data: TreeData | undefined, sources: FactSources): Promise<Expansion> {
  const problems: Problem[] = [];
  const instances = uniqueInstances([...dataInstances(data, problems), ...declared], problems);
  if (instances.length === 0 || root === undefined) return { texts: [], instances, problems };
  const names = moduleNames(root);
  const modules = new Map<string, ModuleSource | undefined>();
  const inputs: TemplateInput[] = [];
  const owners: ModuleMembership[] = [];
  /** Per input: the sensitive parameters' values, which make the resources they reach sensitive (taint.ts). */
  const taints: FactUse[][] = [];
  for (const instance of instances) {
    if (!names.includes(instance.source)) {
      const known = names.length > 0 ? `the tree's modules: ${names.join(', ')}` : 'the tree has no modules/ directory';
      problems.push({ ...instance.at, message: `module "${instance.name}": "${instance.source}" is not a module of this tree${didYouMean(instance.source, names)} (${known})` });
      continue;
    }
    if (!modules.has(instance.source)) modules.set(instance.source, readOnce(root, instance.source, problems));
    const module = modules.get(instance.source);
    if (!module) continue;
    const { vars, problems: paramProblems, sensitive, origins } = resolveParams(instance, module.variables, data);
    problems.push(...paramProblems);
    if (paramProblems.length > 0) continue;
    const membership: ModuleMembership = { instance: instance.name, source: module.name, dir: module.dir, at: instance.at, params: origins, ...(instance.fromData ? { fromData: true } : {}) };
    const secrets = sensitive.flatMap((name) => leafTexts(vars[name]));
    for (const { file, source } of module.files) {
      const secretLines = sensitive.length > 0 ? variableLines(source, new Set(sensitive)) : [];
      inputs.push({ file, source, vars, marks: true, describe: (message) => `${message} (module "${instance.name}")`, ...(secrets.length > 0 ? { secrets, secretLines } : {}) });
      owners.push(membership);
      taints.push(parameterTaints(source, sensitive, vars));
    }
  }
  if (problems.length > 0) return { texts: [], instances, problems };
  const rendered = await renderWithLines(inputs, sources);
  const texts = inputs.map((input, i) => ({
    file: input.file,
    source: input.source,
    rendered: rendered[i].text,
    sourceLines: rendered[i].sourceLines,
    sensitiveFacts: [...rendered[i].sensitiveFacts, ...taints[i]],
    module: owners[i],
  }));
  return { texts, instances, problems };
}

/**
 * What a module file's sensitive parameters taint, as a sensitive fact would (taint.ts): the
 * resources written where the file reads them (whatever a helper makes of the value there), and any
 * resource holding one of their values.
 */
function parameterTaints(source: string, sensitive: readonly string[], vars: { [key: string]: AttrValue }): FactUse[] {
  return sensitive.flatMap((name) => {
    const values = leafTexts(vars[name]);
    if (values.length === 0) return [];
    const uses: FactUse[] = values.map((value) => ({ name: `module parameter ${name}`, value }));
    for (const line of variableLines(source, new Set([name]))) uses.push({ name: `module parameter ${name}`, value: values[0], line });
    return uses;
  });
}

function leafTexts(value: AttrValue): string[] {
  if (Array.isArray(value)) return value.flatMap(leafTexts);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leafTexts);
  return value === null || String(value) === '' ? [] : [String(value)];
}

function readOnce(root: string, name: string, problems: Problem[]): ModuleSource | undefined {
  try {
    return readModule(root, name);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    problems.push(...e.problems);
    return undefined;
  }
}

/** The modules the data key `modules` lists: each an instance named after its module. */
function dataInstances(data: TreeData | undefined, problems: Problem[]): InstanceDecl[] {
  if (!data) return [];
  const e = data.explain(MODULES_KEY);
  if (!e.result) return [];
  const where = (name: string | undefined): Location => {
    const step = e.steps.find((s) => s.found && (name === undefined || (Array.isArray(s.value) ? s.value.includes(name) : s.value === name)));
    return step?.file ? { file: step.file, ...(step.line !== undefined ? { line: step.line } : {}) } : { file: e.result!.origins[0].file };
  };
  const list = Array.isArray(e.result.value) ? e.result.value : [e.result.value];
  const out: InstanceDecl[] = [];
  for (const name of list) {
    if (typeof name !== 'string' || !INSTANCE_NAME.test(name)) {
      problems.push({ ...where(undefined), message: `data "${MODULES_KEY}": ${JSON.stringify(name)} is not a module name (a directory under modules/)` });
      continue;
    }
    out.push({ name, source: name, params: {}, at: where(name), keyAt: {}, fromData: true });
  }
  return out;
}

/** Each instance name once: a module listed by two levels is one instance; two blocks of one name are an error. */
function uniqueInstances(all: InstanceDecl[], problems: Problem[]): InstanceDecl[] {
  const byName = new Map<string, InstanceDecl>();
  for (const instance of all) {
    if (!INSTANCE_NAME.test(instance.name)) {
      problems.push({ ...instance.at, message: `module "${instance.name}": an instance name is letters, digits, _ and -, starting with a letter` });
      continue;
    }
    const first = byName.get(instance.name);
    if (!first) byName.set(instance.name, instance);
    else if (!(first.fromData && instance.fromData)) {
      problems.push({ ...instance.at, message: `module "${instance.name}" is instantiated twice (first at ${formatLocation(first.at)}${first.fromData ? `, by the data key "${MODULES_KEY}"` : ''}): give each instance its own name` });
    }
  }
  return [...byName.values()];
}
