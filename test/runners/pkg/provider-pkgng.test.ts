// The pkg runner's pkgng provider (FreeBSD) against a FAKE pkg (fake-pkgng.ts: only the syntax pkg's
// manual pages give, anything else refused), since no FreeBSD pkg runs here. What is real: the
// runner, the provider choice, the package lock (flock), the decision and govern run. What is not:
// pkg itself; these tests pin what govern sends and what it makes of the answers.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { providerContext } from '../../../src/shared/command-runner.js';
import { parseResult } from '../../../src/shared/protocol.js';
import { packageProvider } from '../../../src/runners/pkg/providers.js';
import { govern, runner, TEST_VAR_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { FakePkgng } from './fake-pkgng.js';

const NAME = 'govern-bsd-hello';

describe('pkg runner, pkgng provider (FAKE FreeBSD pkg)', function () {
  this.timeout(60_000);
  let fake: FakePkgng;

  async function pkg(args: string[], options: { noop?: boolean } = {}) {
    const r = await runner('pkg', [NAME, ...args, 'provider=pkgng'], { env: { ...fake.env, ...(options.noop ? { GOVERN_NOOP: '1' } : {}) } });
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
  }

  before(() => {
    fake = new FakePkgng();
    fake.offer(NAME, '1.0');
  });
  after(() => fake?.remove());

  it('present, absent: noop says so and installs nothing; then pkg install -y; then no change #once', async () => {
    expect(await pkg(['ensure=present'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed' });
    expect(fake.takeCalls()).to.deep.equal([`pkg [info] [-e] [${NAME}]`, `pkg [rquery] [-U] [%v] [${NAME}]`]);
    const r = await pkg(['ensure=present']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0' });
    expect(fake.takeCalls()).to.deep.equal([`pkg [info] [-e] [${NAME}]`, `pkg [install] [-y] [${NAME}]`, `pkg [info] [-e] [${NAME}]`, `pkg [query] [%v] [${NAME}]`]);
    expect(fake.installed(NAME)).to.equal('1.0');
    expect(await pkg(['ensure=present'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0' });
    expect(fake.takeCalls()).to.deep.equal([`pkg [info] [-e] [${NAME}]`, `pkg [query] [%v] [${NAME}]`]);
  });

  it('latest: noop compares with pkg rquery -U, then pkg upgrade -y; at the latest, no change #once', async () => {
    fake.offer(NAME, '1.1_1');
    expect(await pkg(['ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to latest' });
    expect(fake.installed(NAME)).to.equal('1.0');
    fake.takeCalls();
    const r = await pkg(['ensure=latest']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0 to 1.1_1' });
    expect(fake.takeCalls()).to.include(`pkg [upgrade] [-y] [${NAME}]`);
    expect(await pkg(['ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1.1_1' });
    expect(await pkg(['ensure=latest'])).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1.1_1' });
  });

  it('a version without its revision is met by any revision; one no repository offers fails naming what is #once', async () => {
    expect(await pkg(['ensure=1.1'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1.1_1' });
    fake.takeCalls();
    const r = await pkg(['ensure=2.0']);
    expect(r.code).to.equal(1);
    expect(r.message).to.include(`no pkg repository offers ${NAME} 2.0 (offered: 1.1_1)`);
    expect(fake.takeCalls().filter((c) => !/\[(info|query|rquery)\]/.test(c))).to.deep.equal([]);
    expect(fake.installed(NAME)).to.equal('1.1_1');
  });

  it('a version only an older repository offers: pkg install -f (pkg upgrade never goes down) #once', async () => {
    fake.offer(NAME, '1.0');
    expect(await pkg(['ensure=1.0'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have downgraded to 1.0' });
    fake.takeCalls();
    const down = await pkg(['ensure=1.0']);
    expect(down, down.stderr).to.deep.include({ code: 0, changed: true, message: 'downgraded from 1.1_1 to 1.0' });
    expect(fake.takeCalls()).to.include(`pkg [install] [-f] [-y] [${NAME}]`);
  });

  it('the epoch decides first: 1.0,1 is newer than 1.0 (pkg upgrade) #once', async () => {
    fake.offer(NAME, '1.0,1');
    expect(await pkg(['ensure=1.0,1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to 1.0,1' });
    const up = await pkg(['ensure=1.0,1']);
    expect(up, up.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0 to 1.0,1' });
    expect(fake.takeCalls()).to.include(`pkg [upgrade] [-y] [${NAME}]`);
  });

  it('refuses a version the ports cannot make and a name with a pattern, before pkg runs #once', async () => {
    const version = await pkg(['ensure=1.0_x']);
    expect(version.code).to.equal(1);
    expect(version.message).to.include('the revision after "_" must be a number, not "x"');
    const name = await runner('pkg', ['.hidden', 'provider=pkgng'], { env: fake.env });
    expect(parseResult(name.stdout).message).to.include('invalid FreeBSD package name ".hidden"');
    expect(fake.takeCalls()).to.deep.equal([]);
  });

  it('absent: pkg delete -y, then no change #once', async () => {
    const r = await pkg(['ensure=absent']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1.0,1' });
    expect(fake.takeCalls()).to.include(`pkg [delete] [-y] [${NAME}]`);
    expect(fake.installed(NAME)).to.equal(undefined);
    expect(await pkg(['ensure=absent'])).to.deep.include({ code: 0, changed: false, message: 'already absent' });
  });

  it('is chosen by os/family = freebsd (fake govern facts), and by pkg alone on PATH #once', async () => {
    const dir = tempDir('govern-pkgng-choice-');
    const facts = writeFile(path.join(dir, 'govern'), '#!/bin/sh\n[ "$1 $2" = "facts os/family" ] && echo freebsd\n', 0o755);
    const quiet = () => undefined;
    expect((await packageProvider({ name: NAME, ensure: { kind: 'present' } }, providerContext({ ...fake.env, GOVERN: facts }, quiet))).name).to.equal('pkgng');
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    for (const tool of ['pkg', 'flock']) fs.symlinkSync(tool === 'pkg' ? path.join(fake.bin, 'pkg') : '/usr/bin/flock', path.join(bin, tool));
    expect((await packageProvider({ name: NAME, ensure: { kind: 'present' } }, providerContext({ PATH: bin }, quiet))).name).to.equal('pkgng');
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`through govern run (${mode} runners), chosen by a tree's os/family fact: install, then zero changes`, async () => {
      fake.offer(NAME, '1.0,1'); // what the tests by hand leave offered (#once: the modes pass has not run them)
      const dir = tempDir('govern-pkgng-run-');
      writeFile(path.join(dir, 'facts.d', 'os', 'family'), 'freebsd\n');
      writeFile(path.join(dir, 'packages.hcl'), `pkg "${NAME}" {\n  ensure = "present"\n}\n`);
      const once = async () => {
        const r = await govern(['run', dir, '--json', '--runner-mode', mode], { env: { ...fake.env, GOVERN_VAR_DIR: TEST_VAR_DIR } });
        expect(r.code, r.stderr).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      const first = await once();
      expect(first.resources[0]).to.include({ ref: `pkg:${NAME}`, status: 'changed', message: 'installed 1.0,1' });
      expect((await once()).summary).to.include({ changed: 0, unchanged: 1 });
      expect(await pkg(['ensure=absent'])).to.deep.include({ code: 0, changed: true });
    });
  }
});
