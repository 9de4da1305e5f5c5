import { expect } from 'chai';
import path from 'node:path';
import { defaultDirs, defaultSearchPaths } from '../../src/config/paths.js';
import { UserError } from '../../src/shared/errors.js';
import { ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('default directories follow the install prefix #once', () => {
  it('the Debian package (PREFIX=/usr, SYSCONFDIR=/etc): shipped under /usr/lib/govern, the user\'s under /etc/govern', () => {
    const lib = path.join(tempDir(), 'usr', 'lib', 'govern');
    writeFile(path.join(lib, 'layout.json'), '{"sysconfdir": "/etc"}\n');
    expect(defaultDirs(lib)).to.deep.equal({
      shippedRunners: path.join(lib, 'bin'),
      userRunners: '/etc/govern/runners.d',
      shippedFacts: path.join(lib, 'facts.d'),
      userFacts: '/etc/govern/facts.d',
      templates: '/etc/govern/templates.d',
      states: '/etc/govern/states',
    });
  });

  it('without a record of the install: PREFIX/etc/govern', () => {
    const top = tempDir();
    const lib = path.join(top, 'usr', 'local', 'lib', 'govern');
    writeFile(path.join(lib, 'package.json'), '{}');
    expect(defaultDirs(lib).userFacts).to.equal(path.join(top, 'usr', 'local', 'etc', 'govern', 'facts.d'));
  });

  it('a broken record is an error naming the file', () => {
    const lib = tempDir();
    writeFile(path.join(lib, 'layout.json'), '{"sysconfdir": "etc"}');
    expect(() => defaultDirs(lib)).to.throw(UserError, `${lib}/layout.json: expected {"sysconfdir": "/absolute/path"}`);
  });

  it('a checkout: its own runners, facts and templates, and the user\'s directories of the default install', () => {
    expect(defaultSearchPaths(ROOT)).to.deep.equal({
      runners: ['/usr/local/etc/govern/runners.d', path.join(ROOT, 'runners')],
      facts: ['/usr/local/etc/govern/facts.d', path.join(ROOT, 'facts.d')],
      templates: [path.join(ROOT, 'templates.d')],
    });
  });
});
