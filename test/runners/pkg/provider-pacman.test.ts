// The pkg runner against the real pacman of this machine (Debian's pacman-package-manager),
// offline: packages built by makepkg in three sync repositories (govcur 1.1-1, govold 1.0-1,
// goveph 1:0.5-1, in that order), installed into a scratch root (pacman-repo.ts). This host is
// Debian, so the provider is named explicitly, except where the os/family fact says arch.
import { expect } from 'chai';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import type { RunReport } from '../../../src/report/types.js';
import { govern, ROOT, runner } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { PacmanTestWorld } from './pacman-repo.js';
import { have } from './repos.js';

const HELLO = 'govern-port-hello';

describe('pkg runner with pacman (real pacman, makepkg and repo-add, scratch root)', function () {
  this.timeout(300_000);
  let world: PacmanTestWorld;

  async function pkg(args: string[], options: { noop?: boolean } = {}) {
    const r = await runner('pkg', [...args, 'provider=pacman'], { env: { ...world.env, ...(options.noop ? { GOVERN_NOOP: '1' } : {}) } });
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr.replace(/\\(.)/g, '$1') };
  }

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('pacman')) || !(await have('makepkg')) || !(await have('repo-add')) || !(await have('bsdtar'))) this.skip();
    world = new PacmanTestWorld(HELLO);
    await world.build([
      { repo: 'govcur', version: '1.1-1' },
      { repo: 'govold', version: '1.0-1' },
      { repo: 'goveph', version: '1:0.5-1' },
    ]);
  });

  after(() => world?.cleanup());

  it('present, absent, noop: "Would have installed", nothing installed #once', async () => {
    expect(await pkg([HELLO, 'ensure=present'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have installed' });
    expect(await world.status()).to.equal('absent');
  });

  it('version, absent: pacman -S from the repository that offers it #once', async () => {
    const r = await pkg([HELLO, 'ensure=1.0-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'installed 1.0-1' });
    expect(r.stderr).to.include(`$ pacman -S --noconfirm --noprogressbar -- govold/${HELLO}\n`);
    expect(await world.status()).to.equal('1.0-1');
  });

  it('present, installed: no change, no pacman -S #once', async () => {
    const r = await pkg([HELLO, 'ensure=present']);
    expect(r).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
    expect(r.stderr).to.include(`$ pacman -Q -- ${HELLO}`);
    expect(r.stderr).not.to.include('$ pacman -S ');
  });

  it('latest, older installed: noop says so, then pacman -S from the first repository #once', async () => {
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to latest' });
    const r = await pkg([HELLO, 'ensure=latest']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.0-1 to 1.1-1' });
    expect(r.stderr).to.include(`$ pacman -S --noconfirm --noprogressbar -- govcur/${HELLO}\n`);
    expect(await world.status()).to.equal('1.1-1');
  });

  it('latest, at the latest: no change, in noop too #once', async () => {
    expect(await pkg([HELLO, 'ensure=latest'])).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1.1-1' });
    expect(await pkg([HELLO, 'ensure=latest'], { noop: true })).to.deep.include({ code: 0, changed: false, message: 'already at the latest version 1.1-1' });
  });

  it('a version with an epoch is newer (vercmp): upgrade to 1:0.5-1 #once', async () => {
    expect(await pkg([HELLO, 'ensure=1:0.5-1'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have upgraded to 1:0.5-1' });
    const r = await pkg([HELLO, 'ensure=1:0.5-1']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'upgraded from 1.1-1 to 1:0.5-1' });
    expect(await world.status()).to.equal('1:0.5-1');
  });

  it('a version without its pkgrel: downgrade to the one offered (1.0 matches 1.0-1) #once', async () => {
    expect(await pkg([HELLO, 'ensure=1.0'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have downgraded to 1.0' });
    const r = await pkg([HELLO, 'ensure=1.0']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'downgraded from 1:0.5-1 to 1.0-1' });
    expect(await pkg([HELLO, 'ensure=1.0'])).to.deep.include({ code: 0, changed: false, message: 'already installed 1.0-1' });
  });

  it('a version no repository offers: fails naming what is offered, package untouched #once', async () => {
    const r = await pkg([HELLO, 'ensure=9.9-9']);
    expect(r.code).to.equal(1);
    expect(r.message).to.include(`no pacman sync repository offers ${HELLO} 9.9-9 (offered: 1.1-1 in govcur, 1.0-1 in govold, 1:0.5-1 in goveph)`);
    expect(await world.status()).to.equal('1.0-1');
  });

  it('refuses a version makepkg cannot make and a name pacman cannot have, before running pacman -S #once', async () => {
    const version = await pkg([HELLO, 'ensure=1.0-x']);
    expect(version.code).to.equal(1);
    expect(version.message).to.include('pkgrel "x" must be a number');
    const name = await pkg(['Govern:Hello', 'ensure=present']);
    expect(name.code).to.equal(1);
    expect(name.message).to.include('invalid pacman package name "Govern:Hello"');
    expect(name.stderr).not.to.include('$ pacman');
  });

  it('absent: noop, then pacman -R, then no change #once', async () => {
    expect(await pkg([HELLO, 'ensure=absent'], { noop: true })).to.deep.include({ code: 0, changed: true, message: 'Would have uninstalled' });
    const r = await pkg([HELLO, 'ensure=absent']);
    expect(r, r.stderr).to.deep.include({ code: 0, changed: true, message: 'uninstalled 1.0-1' });
    expect(r.stderr).to.include(`$ pacman -R --noconfirm --noprogressbar -- ${HELLO}\n`);
    expect(await world.status()).to.equal('absent');
    expect(await pkg([HELLO, 'ensure=absent'])).to.deep.include({ code: 0, changed: false, message: 'already absent' });
  });

  describe('through govern run (persistent runner)', () => {
    async function run(state: string, env: NodeJS.ProcessEnv, ...options: string[]) {
      const dir = tempDir('govern-pkg-run-');
      writeFile(path.join(dir, 'packages.hcl'), state);
      const r = await govern(['run', dir, '--json', ...options], { env: { ...world.env, ...env } });
      return { code: r.code, stderr: r.stderr, report: JSON.parse(r.stdout) as RunReport };
    }

    it('chosen by os/family = arch (the shipped fact on the Arch os-release fixture): noop, install, then zero changes', async () => {
      const arch = { GOVERN_FACTS_ROOT: path.join(ROOT, 'test', 'facts', 'os-fixtures', 'arch') };
      const state = `pkg "${HELLO}" {\n  ensure = "present"\n}\n`;
      const noop = await run(state, arch, '--noop');
      expect(noop.code, noop.stderr).to.equal(0);
      expect(noop.report.summary).to.include({ changed: 1 });
      expect(await world.status()).to.equal('absent');
      const first = await run(state, arch);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report.resources[0]).to.include({ ref: `pkg:${HELLO}`, status: 'changed', message: 'installed 1.1-1' });
      expect(first.report.resources[0].log.join('\n')).to.include('$ pacman -S');
      const second = await run(state, arch);
      expect(second.report.summary).to.include({ resources: 1, changed: 0, unchanged: 1, failed: 0 });
    });

    it('provider = "pacman" named: absent, then zero changes', async () => {
      const state = `pkg "${HELLO}" {\n  ensure   = "absent"\n  provider = "pacman"\n}\n`;
      const first = await run(state, {});
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report.resources[0]).to.include({ status: 'changed', message: 'uninstalled 1.1-1' });
      expect((await run(state, {})).report.summary).to.include({ changed: 0, unchanged: 1 });
      expect(await world.status()).to.equal('absent');
    });
  });
});
