// A module's `variable` blocks, read from its state files before they render: a module's parameters
// are its templates' variables, so they must be known first. A file that declares them is therefore
// plain HCL, without `{{` (docs/modules.md); the parser reads it as written.
import type { HclBlock, HclFile } from '../../hcl/syntax.js';
import type { Location, Problem } from '../../shared/errors.js';
import { ATTRIBUTE_KEY } from '../../shared/validate.js';
import { didYouMean } from '../../shared/suggest.js';
import { PARAM_TYPES, VARIABLE_BLOCK, type ParamType, type VariableDecl } from './declarations.js';
import { valueProblem } from './params.js';

const VARIABLE_KEYS = ['type', 'default', 'description', 'values', 'pattern'];

export function readVariables(file: string, parsed: HclFile, problems: Problem[]): VariableDecl[] {
  const out: VariableDecl[] = [];
  for (const item of parsed.items) {
    if (item.kind === 'block' && item.type === VARIABLE_BLOCK) {
      const v = readVariable(file, item, problems);
      if (v) out.push(v);
    }
  }
  return out;
}

function readVariable(file: string, block: HclBlock, problems: Problem[]): VariableDecl | undefined {
  const at: Location = { file, line: block.at.line };
  const [name] = block.labels;
  if (block.labels.length !== 1 || !ATTRIBUTE_KEY.test(name) || name === 'source') {
    problems.push({ ...at, message: 'a parameter is declared variable "name" { type = "string" } (a name of letters, digits, _ and -, not "source")' });
    return undefined;
  }
  const decl: Partial<VariableDecl> & { name: string; at: Location } = { name, at };
  let ok = true;
  const problem = (line: number, message: string) => {
    problems.push({ file, line, message: `variable "${name}": ${message}` });
    ok = false;
  };
  for (const item of block.body) {
    if (item.kind === 'block') {
      problem(item.at.line, `block "${item.type}" has no meaning here (keys: ${VARIABLE_KEYS.join(', ')})`);
      continue;
    }
    const { value } = item;
    const line = item.at.line;
    if (item.name === 'type') {
      if (typeof value === 'string' && (PARAM_TYPES as readonly string[]).includes(value)) decl.type = value as ParamType;
      else problem(line, `type must be one of ${PARAM_TYPES.map((t) => `"${t}"`).join(', ')}`);
    } else if (item.name === 'default') decl.default = value;
    else if (item.name === 'description') {
      if (typeof value === 'string') decl.description = value;
      else problem(line, 'description must be a string');
    } else if (item.name === 'values') {
      if (Array.isArray(value) && value.length > 0) decl.values = value;
      else problem(line, 'values must be a non-empty list of the values allowed');
    } else if (item.name === 'pattern') {
      if (typeof value === 'string' && compiles(value)) decl.pattern = value;
      else problem(line, 'pattern must be a regular expression (JavaScript syntax) that a string value matches whole');
    } else problem(line, `unknown key "${item.name}"${didYouMean(item.name, VARIABLE_KEYS)} (keys: ${VARIABLE_KEYS.join(', ')})`);
  }
  if (decl.type === undefined) {
    if (ok) problem(block.at.line, `give its type: type = ${PARAM_TYPES.map((t) => `"${t}"`).join(' | ')}`);
    return undefined;
  }
  if (!ok) return undefined;
  const v = decl as VariableDecl;
  if (v.pattern !== undefined && v.type !== 'string') problem(block.at.line, 'pattern is for a parameter of type "string"');
  else if (v.default !== undefined) {
    const bad = valueProblem(v, v.default);
    if (bad) problem(block.at.line, `its default: ${bad}`);
  }
  return ok ? v : undefined;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
