// How the runner picks its provider, and what it says when the tools are missing.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseResult } from '../../../src/shared/protocol.js';
import { runner } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { providerContext, type CommandRunner } from '../../../src/shared/command-runner.js';
import { runCommand } from '../../../src/shared/process.js';
import { GOVERN_ROOT } from '../../../src/config/paths.js';
import { packageProvider } from '../../../src/runners/pkg/providers.js';
import { UserError } from '../../../src/shared/errors.js';

/** A PATH holding only node (the runner's interpreter) and the given real tools. */
function pathWith(tools: string[]): string {
  const bin = tempDir('govern-pkg-path-');
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  for (const tool of tools) {
    for (const dir of (process.env.PATH ?? '').split(':')) {
      if (dir && fs.existsSync(path.join(dir, tool))) {
        fs.symlinkSync(path.join(dir, tool), path.join(bin, tool));
        break;
      }
    }
  }
  return bin;
}

const quiet = { log: () => undefined };
/** The provider the runner picks for a resource that names none. */
const chooseProvider = (_requested: undefined, context: { env: NodeJS.ProcessEnv; log(line: string): void }) =>
  packageProvider({ name: 'vim', ensure: { kind: 'present' } }, providerContext(context.env, context.log));

describe('pkg provider choice', () => {
  it('with no package tools on PATH: a clear error', async () => {
    const r = await runner('pkg', ['vim', 'ensure=present'], { env: { PATH: pathWith([]) } });
    expect(r.code).to.equal(1);
    expect(parseResult(r.stdout).message).to.match(/^no supported package manager found on PATH \(apt needs dpkg-query, apt-get, apt-cache and flock; dnf needs rpm, dnf and flock; pacman needs pacman and flock; zypper needs rpm, zypper and flock; pkgng needs pkg and flock\)$/);
  });

  it('provider = "dnf" without dnf: names the missing tools', async () => {
    const r = await runner('pkg', ['vim', 'provider=dnf'], { env: { PATH: pathWith(['flock', 'dpkg-query', 'apt-get', 'apt-cache']) } });
    expect(r.code).to.equal(1);
    expect(parseResult(r.stdout).message).to.match(/^the dnf provider \(provider = "dnf"\) needs rpm and dnf, which are not on PATH/);
  });

  it('provider = "apt" without flock: names flock', async () => {
    const r = await runner('pkg', ['vim', 'provider=apt'], { env: { PATH: pathWith(['dpkg-query', 'apt-get', 'apt-cache']) } });
    expect(parseResult(r.stdout).message).to.match(/^the apt provider \(provider = "apt"\) needs flock, which is not on PATH/);
  });

  it('without GOVERN, detects by the tools: apt first (this Debian host also has dnf), dnf when apt is missing', async function () {
    const both = pathWith(['flock', 'dpkg-query', 'apt-get', 'apt-cache', 'rpm', 'dnf']);
    const onlyDnf = pathWith(['flock', 'rpm', 'dnf']);
    if (!fs.existsSync(path.join(both, 'dnf')) || !fs.existsSync(path.join(both, 'apt-get'))) this.skip();
    expect((await chooseProvider(undefined, { ...quiet, env: { PATH: both } })).name).to.equal('apt');
    expect((await chooseProvider(undefined, { ...quiet, env: { PATH: onlyDnf } })).name).to.equal('dnf');
  });

  it('without GOVERN, detects pacman when it is the only package manager on PATH', async function () {
    const onlyPacman = pathWith(['flock', 'pacman']);
    if (!fs.existsSync(path.join(onlyPacman, 'pacman'))) this.skip();
    expect((await chooseProvider(undefined, { ...quiet, env: { PATH: onlyPacman } })).name).to.equal('pacman');
  });

  it('with GOVERN set, follows the os/family fact (fake govern facts)', async function () {
    const dir = tempDir('govern-pkg-facts-');
    const PATH = pathWith(['flock', 'dpkg-query', 'apt-get', 'apt-cache', 'rpm', 'dnf']);
    if (!fs.existsSync(path.join(PATH, 'dnf'))) this.skip();
    const fake = (family: string) => writeFile(path.join(dir, `govern-${family}`), `#!/bin/sh\n[ "$1 $2" = "facts os/family" ] && echo ${family}\n`, 0o755);
    expect((await chooseProvider(undefined, { ...quiet, env: { PATH, GOVERN: fake('redhat') } })).name).to.equal('dnf');
    expect((await chooseProvider(undefined, { ...quiet, env: { PATH, GOVERN: fake('debian') } })).name).to.equal('apt');
    // A family govern does not map, or a failing govern: back to detection.
    const logs: string[] = [];
    expect((await chooseProvider(undefined, { log: (l) => logs.push(l), env: { PATH, GOVERN: fake('gentoo') } })).name).to.equal('apt');
    expect(logs.join('\n')).to.match(/os\/family is gentoo, which names no package manager/);
    const broken = writeFile(path.join(dir, 'govern-broken'), '#!/bin/sh\nexit 3\n', 0o755);
    expect((await chooseProvider(undefined, { ...quiet, env: { PATH, GOVERN: broken } })).name).to.equal('apt');
  });

  it('asks govern for os/family once per process (fake govern facts)', async () => {
    const dir = tempDir('govern-pkg-facts-');
    const calls = path.join(dir, 'calls');
    const fake = writeFile(path.join(dir, 'govern'), `#!/bin/sh\necho call >> '${calls}'\nprintf 'os/family\\tdebian\\n'\n`, 0o755);
    const env = { PATH: process.env.PATH, GOVERN: fake };
    expect((await chooseProvider(undefined, { ...quiet, env })).name).to.equal('apt');
    expect((await chooseProvider(undefined, { ...quiet, env })).name).to.equal('apt');
    expect(fs.readFileSync(calls, 'utf8')).to.equal('call\n');
  });

  it('with GOVERN this govern, answers os/family in-process from GOVERN_FACTS_PATH, as `govern facts` does', async function () {
    const PATH = pathWith(['flock', 'dpkg-query', 'apt-get', 'apt-cache', 'rpm', 'dnf']);
    if (!fs.existsSync(path.join(PATH, 'dnf'))) this.skip();
    const GOVERN = path.join(GOVERN_ROOT, 'bin', 'govern');
    const started: string[] = [];
    const run: CommandRunner = (command, args, options) => (started.push(`${command} ${args.join(' ')}`), runCommand(command, args, options));
    const choose = (env: NodeJS.ProcessEnv, log: (line: string) => void = () => undefined) =>
      packageProvider({ name: 'vim', ensure: { kind: 'present' } }, providerContext({ PATH, GOVERN, ...env }, log, run));
    // An executable fact of a facts directory of its own: it runs (in this process's child, not a govern's).
    const facts = tempDir('govern-pkg-facts-');
    const ran = path.join(facts, 'ran');
    writeFile(path.join(facts, 'd', 'os', 'family'), `#!/bin/sh\necho run >> '${ran}'\necho RedHat\n`, 0o755);
    expect((await choose({ GOVERN_FACTS_PATH: path.join(facts, 'd') })).name).to.equal('dnf');
    expect(fs.readFileSync(ran, 'utf8')).to.equal('run\n');
    expect(started.filter((c) => c.startsWith(GOVERN))).to.deep.equal([]);
    // No such fact: `govern facts os/family` exits 1 there, and the runner says so and detects.
    const empty = tempDir('govern-pkg-facts-');
    const asked = await runCommand(GOVERN, ['facts', 'os/family'], { env: { PATH, GOVERN_FACTS_PATH: empty } });
    expect(asked.code).to.equal(1);
    const logs: string[] = [];
    expect((await choose({ GOVERN_FACTS_PATH: empty }, (l) => logs.push(l))).name).to.equal('apt');
    expect(logs.join('\n')).to.equal(`could not read the os/family fact (${GOVERN} facts os/family: exit 1); looking for a package manager`);
    expect(started.filter((c) => c.startsWith(GOVERN))).to.deep.equal([]);
  });

  it('an os/family whose tools are missing is an error, not a silent switch', async () => {
    const dir = tempDir('govern-pkg-facts-');
    const fake = writeFile(path.join(dir, 'govern'), '#!/bin/sh\necho redhat\n', 0o755);
    let error: unknown;
    await chooseProvider(undefined, { ...quiet, env: { PATH: pathWith(['flock', 'dpkg-query', 'apt-get', 'apt-cache']), GOVERN: fake } }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(UserError);
    expect((error as Error).message).to.match(/the dnf provider \(os\/family is redhat\) needs rpm and dnf/);
  });

  it('understands the refresh signal (nothing to do) and refuses others', async () => {
    const ok = await runner('pkg', ['vim'], { env: { GOVERN_SIGNAL: 'refresh' } });
    expect(ok.code).to.equal(0);
    expect(parseResult(ok.stdout)).to.deep.include({ changed: false, message: 'refresh: nothing to do for a package' });
    const bad = await runner('pkg', ['vim'], { env: { GOVERN_SIGNAL: 'restart' } });
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/pkg does not accept the signal "restart" \(it accepts refresh\)/);
  });
});
