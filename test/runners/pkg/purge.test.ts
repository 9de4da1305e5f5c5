// ensure = "purged" with the real apt and dpkg: a package with a conffile, removed (absent keeps the
// conffile: dpkg's `rc` state), then purged (dpkg has no record left, the conffile is gone); purged
// straight from installed; noop messages. A local repository, offline.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import { runner } from '../../support/cli.js';
import { AptTestRepo, dpkgPurge, dpkgStatus, have, scratchDir } from './repos.js';
import { hostExclusive } from '../../support/host-lock.js';

const PKG = 'govern-test-purge';
const CONFFILE = '/etc/govern-test-purge.conf';

async function pkg(args: string[], noop = false) {
  const r = await runner('pkg', [PKG, ...args], { env: noop ? { GOVERN_NOOP: '1' } : {} });
  return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
}

describe('pkg runner: ensure = "purged" (real apt and dpkg, local repository) #once', function () {
  hostExclusive();
  this.timeout(300_000);
  let repo: AptTestRepo;

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('apt-get')) || !(await have('dpkg-scanpackages'))) this.skip();
    if ((await dpkgStatus(PKG)) !== 'unknown') await dpkgPurge([PKG]);
    repo = new AptTestRepo(scratchDir('govern-pkg-purge-'), [PKG]);
    await repo.build([{ name: PKG, version: '1.0-1', conffile: CONFFILE }]);
    await repo.add();
  });
  after(async () => {
    await repo?.cleanup();
  });

  it('absent keeps the configuration (rc); purged then removes it, and again changes nothing', async () => {
    expect(await pkg(['ensure=present'])).to.deep.include({ code: 0, changed: true });
    expect(await pkg(['ensure=absent'])).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1.0-1' });
    expect(await dpkgStatus(PKG)).to.equal('1.0-1 config-files');
    expect(fs.existsSync(CONFFILE)).to.equal(true);

    expect(await pkg(['ensure=purged'], true)).to.deep.include({ code: 0, changed: true, message: 'Would have purged the configuration files left (config-files)' });
    expect(await dpkgStatus(PKG)).to.equal('1.0-1 config-files');
    expect(await pkg(['ensure=purged'])).to.deep.include({ code: 0, changed: true, message: 'purged the configuration files left (config-files)' });
    expect(await dpkgStatus(PKG)).to.equal('unknown');
    expect(fs.existsSync(CONFFILE)).to.equal(false);
    expect(await pkg(['ensure=purged'])).to.deep.include({ code: 0, changed: false, message: 'already absent' });
  });

  it('purged straight from installed leaves no rc state', async () => {
    expect(await pkg(['ensure=present'])).to.deep.include({ code: 0, changed: true });
    expect(await pkg(['ensure=purged'], true)).to.deep.include({ code: 0, changed: true, message: 'Would have purged' });
    expect(await pkg(['ensure=purged'])).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1.0-1 and purged its configuration' });
    expect(await dpkgStatus(PKG)).to.equal('unknown');
    expect(fs.existsSync(path.dirname(CONFFILE))).to.equal(true);
    expect(fs.existsSync(CONFFILE)).to.equal(false);
  });
});
