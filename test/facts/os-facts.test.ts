import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

/**
 * The shipped os facts against each system's os-release, kept as fixtures under
 * test/facts/os-fixtures/SYSTEM/ (etc/os-release or usr/lib/os-release, where the system puts it).
 * GOVERN_FACTS_ROOT points the facts at the fixture. `uname` cannot be the system's own here: a
 * fake `uname` on PATH prints the fixture's recorded output (its `uname` file, one `-s VALUE` line
 * per flag).
 */
const FIXTURES = path.join(ROOT, 'test', 'facts', 'os-fixtures');
const SHIPPED = path.join(ROOT, 'facts.d');

/** The environment that points the shipped facts at ROOT: its os-release, and its recorded uname output. */
function fixtureEnv(root: string): NodeJS.ProcessEnv {
  const bin = tempDir();
  writeFile(path.join(bin, 'uname'), `#!/bin/sh\nsed -n "s/^$1 //p" ${JSON.stringify(path.join(root, 'uname'))}\n`, 0o755);
  return { GOVERN_FACTS_PATH: SHIPPED, GOVERN_FACTS_ROOT: root, PATH: `${bin}:${process.env.PATH}` };
}

async function osFactsOf(system: string, facts: string[] = ['os/distribution', 'os/family', 'os/name', 'os/release']) {
  const root = path.join(FIXTURES, system);
  const r = await govern(['facts', '--json', ...facts], { env: fixtureEnv(root) });
  expect(r.stderr, system).to.equal('');
  expect(r.code, system).to.equal(0);
  return JSON.parse(r.stdout) as Record<string, string>;
}

const expected: Record<string, [family: string, distribution: string, release: string, name: string]> = {
  'debian-12': ['debian', 'Debian GNU/Linux', '12', 'Linux'],
  'ubuntu-22.04': ['debian', 'Ubuntu', '22.04', 'Linux'],
  'rhel-9': ['redhat', 'Red Hat Enterprise Linux', '9.3', 'Linux'],
  'rocky-9': ['redhat', 'Rocky Linux', '9.3', 'Linux'],
  'almalinux-9': ['redhat', 'AlmaLinux', '9.3', 'Linux'],
  'fedora-39': ['redhat', 'Fedora Linux', '39', 'Linux'],
  arch: ['arch', 'Arch Linux', 'rolling', 'Linux'],
  'opensuse-leap-15.5': ['suse', 'openSUSE Leap', '15.5', 'Linux'],
  'opensuse-tumbleweed': ['suse', 'openSUSE Tumbleweed', '20240105', 'Linux'],
  'alpine-3.19': ['alpine', 'Alpine Linux', '3.19.1', 'Linux'],
  void: ['void', 'Void', 'rolling', 'Linux'],
  'freebsd-14': ['freebsd', 'FreeBSD', '14.0', 'FreeBSD'],
  'openbsd-7.4': ['openbsd', 'OpenBSD', '7.4', 'OpenBSD'],
};

describe('shipped os facts on each system (os-release fixtures, fake uname with recorded output) #once', () => {
  it('has a fixture for every system listed, and one expectation for every fixture', () => {
    expect(fs.readdirSync(FIXTURES).sort()).to.deep.equal(Object.keys(expected).sort());
  });

  for (const [system, [family, distribution, release, name]] of Object.entries(expected)) {
    it(`${system}: os/family ${family}, os/distribution "${distribution}", os/release ${release}`, async () => {
      expect(await osFactsOf(system)).to.deep.equal({
        'os/distribution': distribution,
        'os/family': family,
        'os/name': name,
        'os/release': release,
      });
    });
  }

  it('fails with the paths it looked at when a Linux root has no os-release', async () => {
    const root = tempDir();
    writeFile(path.join(root, 'uname'), '-s Linux\n');
    const r = await govern(['facts', 'os/family'], { env: fixtureEnv(root) });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`no ${root}/etc/os-release or ${root}/usr/lib/os-release`);
  });

  it("renders the README's emacs example from the shipped facts for Arch and for OpenBSD", async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const example = /<!-- emacs-example -->\n```handlebars\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README.md emacs example').to.be.a('string');
    const template = writeFile(path.join(tempDir(), 'emacs.hcl'), example!);
    const render = async (system: string) => {
      const r = await govern(['render', template], { env: fixtureEnv(path.join(FIXTURES, system)) });
      expect(r.stderr, system).to.equal('');
      return r.stdout.trim();
    };
    expect(await render('arch')).to.equal('pkg "emacs" {\n  state = "installed"\n}');
    expect(await render('openbsd-7.4')).to.equal('pkg "emacs-27.1-no_x11" {\n  state = "installed"\n}');
    expect(await render('debian-12')).to.equal('');
  });
});
