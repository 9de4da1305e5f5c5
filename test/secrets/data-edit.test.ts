// Setting one value of a data file edits the parsed document: the value's own position in HCL, the
// YAML node's range or a key added inside a map, never a search of the text for the old value.
import { expect } from 'chai';
import { withValue } from '../../src/secrets/data-edit.js';
import { UserError } from '../../src/shared/errors.js';

describe('secrets: setting one value in a data file #once', () => {
  const NEW = 'ENC[age,to=web,QUJD]';

  it('changes only the value in YAML (quoted or plain) and HCL, and adds a new key at the end', () => {
    expect(withValue('a.yaml', 'x: 1\ndb:\n  password: old\n  user: app\n', 'db/password', NEW)).to.equal(`x: 1\ndb:\n  password: "${NEW}"\n  user: app\n`);
    expect(withValue('a.yaml', 'x: 1\n', 'api/token', NEW)).to.equal(`x: 1\napi:\n  token: "${NEW}"\n`);
    expect(withValue('a.hcl', 'db = { password = "old" }\n', 'db/password', NEW)).to.equal(`db = { password = "${NEW}" }\n`);
    expect(withValue('a.hcl', 'x = 1', 'token', NEW)).to.equal(`x = 1\ntoken = "${NEW}"\n`);
  });

  it('replaces a value by its position, even when its text occurs elsewhere in the file', () => {
    const hcl = '# x marks example.org\nsite = "example.org"\ndb = {\n  host     = "x"\n  password = "x"\n}\n';
    expect(withValue('a.hcl', hcl, 'db/password', NEW)).to.equal(hcl.replace('password = "x"', `password = "${NEW}"`));
    const yaml = '# x\nsite: x\ndb:\n  host: x\n  password: x # the old one\n';
    expect(withValue('a.yaml', yaml, 'db/password', NEW)).to.equal(yaml.replace('password: x', `password: "${NEW}"`));
    expect(withValue('a.json', '{"a": "same", "b": {"c": "same"}}', 'b/c', NEW)).to.equal(`{"a": "same", "b": {"c": "${NEW}"}}`);
  });

  it('adds a key inside an existing map: HCL on several lines or one, YAML, and JSON written again whole', () => {
    expect(withValue('a.hcl', 'db = {\n  host = "db1" # the primary\n}\nz = 1\n', 'db/password', NEW)).to.equal(`db = {\n  host = "db1" # the primary\n  password = "${NEW}"\n}\nz = 1\n`);
    expect(withValue('a.hcl', 'db = { host = "db1" }\n', 'db/password', NEW)).to.equal(`db = { host = "db1", password = "${NEW}" }\n`);
    expect(withValue('a.hcl', 'app = {\n  db = {\n    host = "db1"\n  }\n}\n', 'app/db/creds/password', NEW)).to.equal(`app = {\n  db = {\n    host = "db1"\n    creds = { password = "${NEW}" }\n  }\n}\n`);
    expect(withValue('a.yaml', '# db\ndb:\n  host: db1 # primary\nz: 1\n', 'db/password', NEW)).to.equal(`# db\ndb:\n  host: db1 # primary\n  password: "${NEW}"\nz: 1\n`);
    expect(withValue('a.json', '{"a": "same", "b": {"c": "same"}}', 'b/d', NEW)).to.equal(`{\n  "a": "same",\n  "b": {\n    "c": "same",\n    "d": "${NEW}"\n  }\n}\n`);
  });

  it('refuses a key whose place holds something other than a string or a map, at its line', () => {
    expect(() => withValue('a.hcl', 'x = 1\ndb = "flat"\n', 'db/password', NEW)).to.throw(UserError, /a.hcl:2: cannot set "db\/password": "db" is not a map/);
    expect(() => withValue('a.yaml', 'db:\n  password: [1]\n', 'db/password', NEW)).to.throw(UserError, /a.yaml:1: cannot set "db\/password": it holds a list/);
  });
});
