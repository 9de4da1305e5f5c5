// Module expansion, in the state phase: the tree's instances (its `module` blocks, and the modules
// its data key `modules` lists) become the rendered state files of their modules, each file rendered
// once per instance with the instance's parameters as its variables (docs/modules.md). The resources
// parsed from them remember their instance (Resource.module).
import { notVendored } from '../../module-sources/verify.js';
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
import { instancePath, type InstanceDecl, type ModuleMembership } from './declarations.js';
import { moduleNames, readModule, type ModuleSource } from './module-tree.js';
import { resolveParams, unknownDataParams } from './params.js';

export interface Expansion {
  texts: StateFileText[];
  instances: InstanceDecl[];
  problems: Problem[];
  /** Data keys under a module's name that are none of its parameters (a typo would be silent). */
  warnings: string[];
  /** Every instance name taken so far: the next round (the instances these texts declare) goes on from it. */
  taken: Map<string, InstanceDecl>;
}

/** An instance's name, as `module:NAME` references it. */
const INSTANCE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Modules in modules, at most this deep: the tree's level is 1. */
export const MAX_MODULE_DEPTH = 8;

/**
 * Instances a tree expands to, at most: ten modules each instantiating ten, five deep, would be
 * 100,000 and plan for minutes (docs/security.md, "Counts and sizes").
 */
export const MAX_MODULE_INSTANCES = 1000;

/**
 * One round: the tree's instances (with the data key `modules`) when `taken` is not given, else the
 * instances the previous round's module files declared (docs/modules.md, "Modules in modules").
 */
export async function expandModules(root: string | undefined, declared: InstanceDecl[], data: TreeData | undefined, sources: FactSources, taken?: Map<string, InstanceDecl>): Promise<Expansion> {
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const names = taken ?? new Map<string, InstanceDecl>();
  const instances = uniqueInstances([...(taken ? [] : dataInstances(data, problems)), ...declared.filter((i) => nestingAllowed(i, problems))], names, problems);
  if (names.size > MAX_MODULE_INSTANCES) {
    const over = instances[instances.length - (names.size - MAX_MODULE_INSTANCES)];
    problems.push({ ...over.at, message: `module "${over.name}": the tree expands to more than ${MAX_MODULE_INSTANCES} module instances (${names.size} so far), here: ${chainOf(over)}; instantiate fewer, or fan out by data rather than by modules in modules` });
    return { texts: [], instances: [], problems, warnings, taken: names };
  }
  if (instances.length === 0 || root === undefined) return { texts: [], instances, problems, warnings, taken: names };
  const moduleDirs = moduleNames(root);
  const modules = new Map<string, ModuleSource | undefined>();
  // Said with the other problems, after the module's other files rendered (they may hold more).
  const misplaced: Problem[] = [];
  const inputs: TemplateInput[] = [];
  const owners: ModuleMembership[] = [];
  /** Per input: the sensitive parameters' values, which make the resources they reach sensitive (taint.ts). */
  const taints: FactUse[][] = [];
  for (const instance of instances) {
    if (!moduleDirs.includes(instance.source)) {
      const known = moduleDirs.length > 0 ? `the tree's modules: ${moduleDirs.join(', ')}` : 'the tree has no modules/ directory';
      const pending = notVendored(root, instance.source);
      problems.push({ ...instance.at, message: `module "${instance.name}": ${pending ?? `"${instance.source}" is not a module of this tree${didYouMean(instance.source, moduleDirs)} (${known})`}` });
      continue;
    }
    const first = !modules.has(instance.source);
    if (first) modules.set(instance.source, readOnce(root, instance.source, problems));
    const module = modules.get(instance.source);
    if (!module) continue;
    if (first) warnings.push(...unknownDataParams(instance.source, module.variables, data));
    if (first) misplaced.push(...module.misplaced);
    const { vars, problems: paramProblems, sensitive, origins } = resolveParams(instance, module.variables, data);
    problems.push(...paramProblems);
    if (paramProblems.length > 0) continue;
    const membership: ModuleMembership = { instance: instance.name, source: module.name, dir: module.dir, at: instance.at, params: origins, ...(instance.fromData ? { fromData: true } : {}), ...(instance.within ? { within: instance.within } : {}) };
    const secrets = sensitive.flatMap((name) => leafTexts(vars[name]));
    for (const { file, source, misplaced: skipped } of module.files) {
      if (skipped) continue;
      const secretLines = sensitive.length > 0 ? variableLines(source, new Set(sensitive)) : [];
      inputs.push({ file, source, vars, marks: true, describe: (message) => `${message} (module "${instance.name}")`, ...(secrets.length > 0 ? { secrets, secretLines } : {}) });
      owners.push(membership);
      taints.push(parameterTaints(source, sensitive, vars));
    }
  }
  if (problems.length > 0) return { texts: [], instances, problems: [...problems, ...misplaced], warnings, taken: names };
  const rendered = await renderWithLines(inputs, sources);
  const texts = inputs.map((input, i) => ({
    file: input.file,
    source: input.source,
    rendered: rendered[i].text,
    sourceLines: rendered[i].sourceLines,
    sensitiveFacts: [...rendered[i].sensitiveFacts, ...taints[i]],
    module: owners[i],
  }));
  return { texts, instances, problems: misplaced, warnings, taken: names };
}

/** The instance and those it is inside, outermost first: `site (web) > vhost-3 (vhost)`. */
function chainOf(instance: InstanceDecl): string {
  const chain: string[] = [`${instance.name} (${instance.source})`];
  for (let m = instance.within; m; m = m.within) chain.unshift(`${m.instance} (${m.source})`);
  return chain.join(' > ');
}

/** A module in a module: not its own module again (a loop), and not deeper than MAX_MODULE_DEPTH. */
function nestingAllowed(instance: InstanceDecl, problems: Problem[]): boolean {
  const chain: ModuleMembership[] = [];
  for (let m = instance.within; m; m = m.within) chain.unshift(m);
  if (chain.length === 0) return true;
  const path = [...chain.map((m) => `${m.instance} (${m.source})`), `${instance.name} (${instance.source})`].join(' > ');
  if (chain.some((m) => m.source === instance.source)) {
    problems.push({ ...instance.at, message: `module "${instance.name}": module "${instance.source}" would instantiate itself: ${path}` });
    return false;
  }
  if (chain.length + 1 > MAX_MODULE_DEPTH) {
    problems.push({ ...instance.at, message: `module "${instance.name}": modules nested more than ${MAX_MODULE_DEPTH} deep: ${path}` });
    return false;
  }
  return true;
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
function uniqueInstances(all: InstanceDecl[], byName: Map<string, InstanceDecl>, problems: Problem[]): InstanceDecl[] {
  const fresh: InstanceDecl[] = [];
  for (const instance of all) {
    if (!INSTANCE_NAME.test(instance.name)) {
      problems.push({ ...instance.at, message: `module "${instance.name}": an instance name is letters, digits, _ and -, starting with a letter` });
      continue;
    }
    const first = byName.get(instance.name);
    if (!first) {
      byName.set(instance.name, instance);
      fresh.push(instance);
    } else if (!(first.fromData && instance.fromData)) {
      const inside = (i: InstanceDecl) => (i.within ? ` in module "${instancePath(i.within)}"` : '');
      problems.push({ ...instance.at, message: `module "${instance.name}"${inside(instance)} is instantiated twice (first at ${formatLocation(first.at)}${first.fromData ? `, by the data key "${MODULES_KEY}"` : inside(first)}): give each instance its own name` });
    }
  }
  return fresh;
}
