import { expect } from 'chai';
import { govern } from '../support/cli.js';
import { tree } from '../support/state-tree.js';

// A template error in one state file does not hide the others' problems, and Handlebars' own words
// become the key's name and what to write (docs/templates.md, "Errors").
describe('template errors: every file at once, in words that name the key and the fix #once', () => {
  const FILES = {
    'hierarchy.hcl': 'levels = ["common"]\n',
    'data/common.hcl': 'users = { alice = { uid = 1000 } }\nports = { http = 80 }\n',
    'a-missing-key.hcl': 'stuff "a" {\n  uid = "{{#with (data "users")}}{{bob.uid}}{{/with}}"\n}\n',
    'b-brace.hcl': 'stuff "b" {\n  conf = "server { {{#each (data "ports")}} listen {{this}};{{/each}}}"\n}\n',
    'c-twice.hcl': 'stuff "c" {\n  x = 1\n  x = 2\n}\n',
    'd-unknown.hcl': 'stuff "d" {\n  y = "{{nope}}"\n}\n',
  };

  it('reports the render error, the syntax error, the unknown name and the parse error of four files, and applies nothing', async () => {
    const t = tree(FILES);
    const r = await govern(['graph', t.states]);
    expect(r.code).to.equal(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).to.deep.equal([
      `govern: ${t.states}/a-missing-key.hcl:2: "bob.uid" is not defined: "bob" has no value here, so it has no "uid"`,
      `govern: ${t.states}/b-brace.hcl:2: template syntax error: "{{/each}}}": Handlebars reads "}}}" as the end of a {{{triple-stash}}}, so a "}" cannot follow a tag's "}}" directly: write "{{/each}} }" (a space between), or the "}" on the next line`,
      `govern: ${t.states}/d-unknown.hcl:2: unknown variable or helper "nope"`,
      `govern: ${t.states}/c-twice.hcl:3:3: x is set twice (first at line 2): an attribute is set once in a block`,
    ]);
  });

  it('names the whole key when its last part is missing from a map', async () => {
    const t = tree({ ...FILES, 'b-brace.hcl': 'stuff "b" {\n}\n', 'c-twice.hcl': 'stuff "c" {\n}\n', 'd-unknown.hcl': 'stuff "d" {\n}\n', 'a-missing-key.hcl': 'stuff "a" {\n  uid = "{{#with (data "users")}}{{alice.gid}}{{/with}}"\n}\n' });
    const r = await govern(['graph', t.states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/a-missing-key.hcl:2: "alice.gid" is not defined: "alice" has no key "gid"`);
  });

  it('says what to write for a "{" right before a block tag', async () => {
    const t = tree({ ...FILES, 'a-missing-key.hcl': 'stuff "a" {\n}\n', 'c-twice.hcl': 'stuff "c" {\n}\n', 'd-unknown.hcl': 'stuff "d" {\n}\n', 'b-brace.hcl': 'stuff "b" {\n  conf = "server {{{#each (data "ports")}} listen {{this}}; {{/each}} }"\n}\n' });
    const r = await govern(['graph', t.states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${t.states}/b-brace.hcl:2: template syntax error: "{{{#each (data "ports")}}": Handlebars reads "{{{" as the start of a {{{triple-stash}}}, so a "{" cannot come right before a block's "{{": write "{ {{#each (data "ports")}}" (a space between), or the "{" on the line before`);
  });
});
