// A module instance's parameters without a tree: the instance's value, else the data hierarchy's
// MODULE/PARAM, else the default, each checked against its declaration, and `variable` blocks read
// from a module's file with every problem named at its line.
import { expect } from 'chai';
import type { DataFound, DataSource } from '../../../src/data/source.js';
import { parseHcl } from '../../../src/hcl/parse.js';
import type { Problem } from '../../../src/shared/errors.js';
import type { InstanceDecl, VariableDecl } from '../../../src/state/modules/declarations.js';
import { resolveParams, valueProblem } from '../../../src/state/modules/params.js';
import { readVariables } from '../../../src/state/modules/variables.js';

const at = (line: number) => ({ file: 'modules/site/vars.hcl', line });
const VARS: VariableDecl[] = [
  { name: 'port', type: 'number', default: 80, at: at(1) },
  { name: 'tls', type: 'string', values: ['on', 'off'], default: 'off', at: at(2) },
  { name: 'name', type: 'string', pattern: '[a-z]+', at: at(3) },
];

function instance(params: InstanceDecl['params'], more: Partial<InstanceDecl> = {}): InstanceDecl {
  const keyAt = Object.fromEntries(Object.keys(params).map((k, i) => [k, { file: 'site.hcl', line: 2 + i }]));
  return { name: 'shop', source: 'site', params, at: { file: 'site.hcl', line: 1 }, keyAt, ...more };
}

function data(values: Record<string, DataFound>): DataSource {
  return { lookup: (key) => values[key], levels: ['common'] };
}

describe('state/modules: an instance\'s parameters #once', () => {
  it('takes the instance\'s value, else the data\'s MODULE/PARAM, else the default, and says where each came from', () => {
    const d = data({ 'site/tls': { value: 'on', origins: [{ level: 'role/web', file: 'data/role/web.yaml', line: 4 }] } });
    const r = resolveParams(instance({ name: 'shop' }), VARS, d);
    expect(r.problems).to.deep.equal([]);
    expect(r.vars).to.deep.equal({ port: 80, tls: 'on', name: 'shop' });
    expect(r.origins.name).to.deep.include({ from: 'instance', value: 'shop', at: { file: 'site.hcl', line: 2 } });
    expect(r.origins.tls).to.deep.include({ from: 'data', at: { file: 'data/role/web.yaml', line: 4 }, data: { key: 'site/tls', levels: ['role/web'] } });
    expect(r.origins.port).to.deep.include({ from: 'default', at: at(1) });
  });

  it('reports every problem at once: unknown (with a suggestion), required, wrong type, not allowed, not matching', () => {
    const r = resolveParams(instance({ prot: 8080, tls: 'maybe' }, { name: 'web', source: 'site' }), VARS, undefined);
    expect(r.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).to.deep.equal([
      'site.hcl:2: module "web" (site): unknown parameter "prot" (did you mean "port"?) (its parameters: port, tls, name)',
      'site.hcl:3: module "web" (site): tls: "maybe" is not one of "on", "off"',
      'site.hcl:1: module "web" (site): the parameter "name" is required: set it here, or in data as "site/name"',
    ]);
    const typed = resolveParams(instance({ port: '80', name: 'Shop' }), VARS, undefined);
    expect(typed.problems.map((p) => p.message)).to.deep.equal([
      'module "shop" (site): port: "80" is not a number',
      'module "shop" (site): name: "Shop" does not match the pattern "[a-z]+"',
    ]);
  });

  it('keeps a sensitive value out of the message, and marks the parameter sensitive', () => {
    const d = data({ 'site/name': { value: 'Secret1', origins: [{ level: 'common', file: 'data/common.yaml' }], sensitive: true } });
    const r = resolveParams(instance({}), VARS, d);
    expect(r.sensitive).to.deep.equal(['name']);
    expect(r.problems.map((p) => p.message)).to.deep.equal(['module "shop" (site): name (from data "site/name" at level "common"): the (sensitive) value is not a valid string']);
    expect(JSON.stringify(r.problems)).to.not.include('Secret1');
  });

  it('checks types, allowed values and whole-string patterns', () => {
    expect(valueProblem({ type: 'list' }, ['a'])).to.equal(undefined);
    expect(valueProblem({ type: 'map' }, ['a'])).to.equal('["a"] is not a map');
    expect(valueProblem({ type: 'bool' }, 'true')).to.equal('"true" is not a bool');
    expect(valueProblem({ type: 'string', pattern: 'ab' }, 'xaby'), 'the whole string').to.equal('"xaby" does not match the pattern "ab"');
  });
});

describe('state/modules: variable blocks #once', () => {
  const read = (text: string) => {
    const problems: Problem[] = [];
    const vars = readVariables('vars.hcl', parseHcl('vars.hcl', text), problems);
    return { vars, problems: problems.map((p) => `${p.line}: ${p.message}`) };
  };

  it('reads each declaration with its type, default, values and pattern', () => {
    const { vars, problems } = read('variable "port" {\n  type = "number"\n  default = 80\n}\nvariable "tls" {\n  type = "string"\n  values = ["on", "off"]\n}\n');
    expect(problems).to.deep.equal([]);
    expect(vars).to.deep.equal([
      { name: 'port', type: 'number', default: 80, at: { file: 'vars.hcl', line: 1 } },
      { name: 'tls', type: 'string', values: ['on', 'off'], at: { file: 'vars.hcl', line: 5 } },
    ]);
  });

  it('names every mistake at its line and keeps none of the bad declarations', () => {
    const { vars, problems } = read(
      'variable "a" {\n  type = "text"\n}\nvariable "b" {\n  type = "number"\n  defualt = 1\n}\nvariable "c" {\n  type = "number"\n  default = "x"\n}\nvariable "source" {\n  type = "string"\n}\nvariable "d" {}\n',
    );
    expect(vars).to.deep.equal([]);
    expect(problems).to.deep.equal([
      '2: variable "a": type must be one of "string", "number", "bool", "list", "map"',
      '6: variable "b": unknown key "defualt" (did you mean "default"?) (keys: type, default, description, values, pattern)',
      '8: variable "c": its default: "x" is not a number',
      '12: a parameter is declared variable "name" { type = "string" } (a name of letters, digits, _ and -, not "source")',
      '15: variable "d": give its type: type = "string" | "number" | "bool" | "list" | "map"',
    ]);
  });
});
