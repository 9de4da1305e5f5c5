// The structured-document decision (docs/json.md, "Decision"), row by row, on JSON, YAML and TOML
// text: pure, no I/O. The real-file tests (runner.test.ts of each) run the runners themselves.
import { expect } from 'chai';
import { decide as decideJson } from '../../../src/runners/json/decide.js';
import { decide as decideYaml } from '../../../src/runners/yaml/decide.js';
import { decider } from '../../../src/runners/toml/decide.js';
import { docDesired } from '../../../src/runners/lib/doc-edit/apply.js';
import { keyPath, typedValue } from '../../../src/runners/lib/doc-edit/keys.js';
import type { EditCurrent } from '../../../src/runners/lib/text-edit/decide-edit.js';

const file = (text: string): EditCurrent => ({ type: 'file', content: Buffer.from(text) });
const want = (key: string, value?: string, extra: Partial<{ ensure: 'present' | 'absent'; type: 'auto' | 'string' | 'json'; create: boolean }> = {}) =>
  docDesired({ path: '/etc/x', key, value, type: extra.type ?? 'auto', ensure: extra.ensure ?? 'present', create: extra.create ?? true, backup: false });

describe('structured-document decide #once', () => {
  it('values typed: booleans, numbers, a map\'s JSON, else text; type = "string" and "json"', () => {
    expect([typedValue('true', 'auto'), typedValue('8080', 'auto'), typedValue('-0.5', 'auto'), typedValue('08', 'auto'), typedValue('1.10', 'auto')]).to.deep.equal([true, 8080, -0.5, '08', 1.1]);
    expect(typedValue('{"a":[1,"x"]}', 'auto')).to.deep.equal({ a: [1, 'x'] });
    expect([typedValue('[1]', 'auto'), typedValue('{ not json', 'auto'), typedValue('8080', 'string')]).to.deep.equal(['[1]', '{ not json', '8080']);
    expect(typedValue('[1, null]', 'json')).to.deep.equal([1, null]);
    expect(() => typedValue('[1,', 'json')).to.throw('value "[1," is not a JSON value (type = "json")');
  });

  it('key paths: / between keys, ~1 and ~0 inside one', () => {
    expect(keyPath('server/port')).to.deep.equal(['server', 'port']);
    expect(keyPath('paths/~1api~0v1')).to.deep.equal(['paths', '/api~v1']);
  });

  it('JSON: up to date when equal as data, whatever the key order or the number\'s spelling', () => {
    expect(decideJson(want('a', '{"y":2,"x":1}'), file('{"a": {"x": 1, "y": 2.0}}'), false)).to.include({ changed: false, summary: 'a up to date' });
    expect(decideJson(want('a', '1e3'), file('{"a": 1000}'), false)).to.include({ changed: false });
  });

  it('JSON: set, added, removed; noop says "Would have"', () => {
    expect(decideJson(want('a', '2'), file('{"a": 1}'), false).content!.toString()).to.equal('{"a": 2}');
    expect(decideJson(want('b', 'x'), file('{"a": 1}'), true)).to.include({ changed: true, summary: 'added b' });
    expect(decideJson(want('a', undefined, { ensure: 'absent' }), file('{"a": 1, "b": 2}'), false).content!.toString()).to.equal('{"b": 2}');
  });

  it('JSON: a key named __proto__ is a key like any other', () => {
    const plan = decideJson(want('__proto__/polluted', 'true'), file('{}'), false);
    expect(JSON.parse(plan.content!.toString())).to.deep.equal(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('a byte order mark is kept; text that is not UTF-8 is refused', () => {
    expect(decideJson(want('a', '2'), file('\uFEFF{"a": 1}\n'), false).content!.toString()).to.equal('\uFEFF{"a": 2}\n');
    expect(() => decideJson(want('a', '2'), { type: 'file', content: Buffer.from([0x7b, 0xff, 0x7d]) }, false)).to.throw('/etc/x is not UTF-8 text');
  });

  it('a missing file: created with the value alone; refused without create', () => {
    expect(decideYaml(want('a/b', '1'), { type: 'absent', parent: 'directory' }, false).content!.toString()).to.equal('a:\n  b: 1\n');
    expect(() => decideYaml(want('a', '1', { create: false }), { type: 'absent', parent: 'directory' }, false)).to.throw('/etc/x does not exist (set create = true to create it with the key a)');
  });

  it('YAML: a document of two documents is refused, never replaced', () => {
    expect(() => decideYaml(want('a', '2'), file('a: 1\n---\nb: 2\n'), false)).to.throw('/etc/x is not a valid YAML document (Source contains multiple documents');
  });

  it('YAML: inside a flow map, the library writes the document, comments kept', () => {
    const plan = decideYaml(want('m/b', '2'), file('# c\nm: {a: 1}  # flow\n'), false);
    expect(plan.content!.toString()).to.equal('# c\nm: { a: 1, b: 2 } # flow\n');
  });

  it('TOML: set and added through the library\'s patch; a date elsewhere kept as written', async () => {
    const decideToml = await decider();
    const text = 'when = 1979-05-27T07:32:00Z\n[s]\nport = 80 # p\n';
    expect(decideToml(want('s/port', '81'), file(text), false).content!.toString()).to.equal('when = 1979-05-27T07:32:00Z\n[s]\nport = 81 # p\n');
    expect(decideToml(want('when', '1'), file(text), false).content!.toString()).to.equal('when = 1\n[s]\nport = 80 # p\n');
  });
});
