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

  it('writes JSON again whole when the value is not written once, and refuses what one line cannot do in HCL', () => {
    expect(withValue('a.json', '{"a": "same", "b": {"c": "same"}}', 'b/c', NEW)).to.equal(`{\n  "a": "same",\n  "b": {\n    "c": "${NEW}"\n  }\n}\n`);
    expect(() => withValue('a.hcl', 'db = { user = "app" }\n', 'db/password', NEW)).to.throw(UserError, /a.hcl:1: cannot set "db\/password" here by editing one line/);
  });
});
