// A module's parameters and its instances, as plain declarations: what the state files' `variable`
// and `module` blocks say (and the data key `modules`), before any module is expanded
// (docs/modules.md). Only src/state/to-resources.ts and variables.ts read them from parsed HCL.
import type { Location } from '../../shared/errors.js';
import type { AttrValue } from '../../shared/protocol.js';

export { MODULES_DIR } from '../../module-sources/lock-file.js';
/** The block declaring an instance: `module "shop" { source = "nginx_site", port = 8080 }`. */
export const MODULE_BLOCK = 'module';
/** The block declaring a parameter of a module: `variable "port" { type = "number", default = 80 }`. */
export const VARIABLE_BLOCK = 'variable';
/** A `variable` block in a module's file that uses templates: its parameters must be known before it renders. */
export function misplacedVariable(name: string): string {
  return `variable "${name}": declare a module's parameters in a file without {{ }} (such as variables.hcl): they are read before the module renders`;
}
/** The key of a module block naming its module. */
export const SOURCE_KEY = 'source';
/** The prefix of a reference to every resource of an instance: `module:shop`, `module:shop:refresh`. */
export const MODULE_REF = 'module:';

export const PARAM_TYPES = ['string', 'number', 'bool', 'list', 'map'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];

export interface VariableDecl {
  name: string;
  type: ParamType;
  /** Absent: the parameter is required. */
  default?: AttrValue;
  description?: string;
  /** The values allowed (any type). */
  values?: AttrValue[];
  /** A regular expression a string must match whole. */
  pattern?: string;
  at: Location;
}

export interface InstanceDecl {
  /** The instance's name: the block's label, or the module's name for one listed in data. */
  name: string;
  /** The module, a directory under modules/. */
  source: string;
  /** Parameters as written, `source` left out. */
  params: { [key: string]: AttrValue };
  at: Location;
  /** Where each parameter is written. */
  keyAt: Record<string, Location>;
  /** Listed in the data key `modules` rather than declared by a block. */
  fromData?: boolean;
  /** Sensitive values the declaring file used (its sensitive facts): they travel into the instance's resources. */
  sensitiveValues?: string[];
  /** The instance whose module's file declares this one (a module in a module); absent at the tree's level. */
  within?: ModuleMembership;
  /** Parameters whose lines read a sensitive value, whatever a helper made of it there (taint.ts). */
  sensitiveParams?: string[];
}

/** Where an instance's parameter got its value (docs/modules.md): for `govern plan --explain`. */
export interface ParamOrigin {
  value: AttrValue;
  from: 'instance' | 'data' | 'default';
  /** What wrote the value: the instance's line, the data file's, or the variable's declaration. */
  at: Location;
  /** From data: the key (`MODULE/PARAM`) and the levels that answered. */
  data?: { key: string; levels: string[] };
  /** A value from a sensitive fact of the instance's file: never shown. */
  sensitive?: boolean;
}

/** What a resource declared by an instance remembers of it. */
export interface ModuleMembership {
  instance: string;
  source: string;
  /** The module's directory: its templates.d/ is searched first for its resources' templates. */
  dir: string;
  /** Where the instance is declared: its block, or the data file whose `modules` lists it. */
  at?: Location;
  fromData?: boolean;
  /** Each parameter's value and where it came from. */
  params?: Record<string, ParamOrigin>;
  /** The instance that declared this one, when it was declared inside a module. */
  within?: ModuleMembership;
}

/** The instances from the tree's level down to this one: `web > shop`. */
export function instancePath(m: ModuleMembership): string {
  return m.within ? `${instancePath(m.within)} > ${m.instance}` : m.instance;
}
