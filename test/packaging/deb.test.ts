// The Debian package, as a sysadmin meets it: built with `make deb`'s script, checked by lintian,
// installed with apt-get, used, upgraded over an edited conffile, purged. It installs /usr/bin/govern
// on this host, so it is purged afterwards whatever happens, and the `make install` layout under
// /usr/local must come out of it untouched.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { runCommand, type RunResult } from '../../src/shared/process.js';
import { ROOT } from '../support/cli.js';
import { hostExclusive } from '../support/host-lock.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** The package's own directories, not the suite's (test/support/suite-dirs.ts): this test checks them. */
const HOST_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['GOVERN_LOCK_DIR', 'GOVERN_CACHE_DIR', 'GOVERN_VAR_DIR'].includes(k)));
const APT_ENV = { ...HOST_ENV, DEBIAN_FRONTEND: 'noninteractive' };
/** Other tests install packages too: wait for dpkg's lock rather than fail on it. */
const APT_WAIT = ['-o', 'DPkg::Lock::Timeout=600'];
const GOVERN = '/usr/bin/govern';
/** A fact of this test's own, in the user's facts directory of the package. */
const USER_FACT = '/etc/govern/facts.d/govdeb_origin';

async function must(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  const r = await runCommand(command, args, { cwd: options.cwd, env: options.env ?? HOST_ENV, timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.code}):\n${r.stdout}${r.stderr}`);
  return r;
}

async function packageStatus(): Promise<string> {
  const r = await runCommand('dpkg-query', ['-W', '-f=${db:Status-Status}', 'govern'], { env: { ...HOST_ENV, LC_ALL: 'C' } });
  return r.code === 0 ? r.stdout.trim() : 'unknown';
}

/** Every entry under the roots with its type, size and mtime: the `make install` layout's fingerprint. */
function fingerprint(roots: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      out.push(`${p} absent`);
      return;
    }
    out.push(`${p} ${st.mode.toString(8)} ${st.size} ${st.mtimeMs}`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
  };
  for (const root of roots) walk(root);
  return out;
}

const MAKE_INSTALL_LAYOUT = ['/usr/local/bin/govern', '/usr/local/lib/govern', '/usr/local/etc/govern', '/usr/local/share/man/man1/govern.1'];

describe('the Debian package (make deb, apt-get install, apt-get purge)', () => {
  let buildDir: string;
  let deb: string;
  /** The package's paths, and its regular files. */
  let contents: string[];
  let files: string[];
  let localLayout: string[];
  hostExclusive();

  before(async function () {
    const status = await packageStatus();
    if (status !== 'unknown' && status !== 'not-installed') {
      throw new Error(`a govern package is already on this host (${status}); this test installs and purges its own, so remove that one first`);
    }
    localLayout = fingerprint(MAKE_INSTALL_LAYOUT);
    buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govdeb-'));
    // apt reads a local package as its unprivileged _apt user.
    fs.chmodSync(buildDir, 0o755);
    const built = await must(path.join(ROOT, 'packaging', 'build-deb'), [], { cwd: buildDir });
    deb = built.stdout.trim().split('\n').at(-1)!;
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(path.basename(deb)).to.equal(`govern_${version}_all.deb`);
    // `dpkg-deb -c` lists like ls -l: the type letter first, the path sixth ("./usr/bin/govern -> ...").
    const listing = (await must('dpkg-deb', ['-c', deb])).stdout.split('\n').filter((l) => l !== '');
    const entries = listing.map((l) => ({ type: l[0], path: l.split(/\s+/)[5].replace(/^\./, '').replace(/\/$/, '') })).filter((e) => e.path !== '');
    contents = entries.map((e) => e.path);
    files = entries.filter((e) => e.type === '-').map((e) => e.path);
  });

  after(async () => {
    fs.rmSync(USER_FACT, { force: true });
    if ((await packageStatus()) !== 'unknown') await runCommand('apt-get', ['purge', ...APT_WAIT, '-y', '-q', 'govern'], { env: APT_ENV, timeoutMs: 600_000 });
    if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
  });

  it('has the Debian layout: code and shipped runners and facts under /usr/lib/govern, configuration in /etc/govern as conffiles', async () => {
    for (const p of ['/usr/bin/govern', '/usr/lib/govern/bin/pkg', '/usr/lib/govern/bin/service', '/usr/lib/govern/bin/file', '/usr/lib/govern/bin/exec',
      '/usr/lib/govern/facts.d/os/family', '/usr/lib/govern/node_modules/handlebars/package.json', '/etc/govern/facts.d', '/etc/govern/runners.d',
      '/etc/govern/templates.d/motd', '/usr/share/man/man1/govern.1.gz', '/usr/share/bash-completion/completions/govern', '/usr/share/doc/govern/copyright']) {
      expect(contents, p).to.include(p);
    }
    const units = fs.existsSync(path.join(ROOT, 'units')) ? fs.readdirSync(path.join(ROOT, 'units')) : [];
    for (const unit of units) expect(contents, `units/${unit}`).to.include(`/lib/systemd/system/${unit}`);
    expect(contents.filter((p) => p.includes('/node_modules/typescript') || p.includes('/node_modules/mocha')), 'no dev dependencies').to.deep.equal([]);
    const modules = contents.filter((p) => p.includes('/node_modules/'));
    expect(modules.filter((p) => /\/(README|CHANGELOG|HISTORY)[^/]*$/i.test(p) || /\/(test|tests|__tests__)\//.test(p)), 'no READMEs or tests of the modules').to.deep.equal([]);
    expect(modules.some((p) => /\/node_modules\/handlebars\/LICENSE$/.test(p)), 'their licences stay').to.equal(true);
    const info = await must('dpkg-deb', ['--field', deb, 'Depends', 'Architecture', 'Suggests', 'Description']);
    expect(info.stdout).to.match(/^Depends: nodejs \(>= 18\.20\)/m);
    expect(info.stdout).to.match(/^Architecture: all$/m);
    expect(info.stdout).to.match(/^Suggests: .*\bbash-completion\b/m); // the completion it ships is used only with it
    const description = info.stdout.slice(info.stdout.indexOf('Description:')).replace(/\n /g, ' ');
    for (const shipped of fs.readdirSync(path.join(ROOT, 'runners'))) expect(description, `the description names the ${shipped} runner`).to.match(new RegExp(`\\b${shipped}\\b`));
    const conffiles = await must('dpkg-deb', ['--info', deb, 'conffiles']);
    expect(conffiles.stdout.trim().split('\n')).to.deep.equal(files.filter((p) => p.startsWith('/etc/')).sort());
  });

  it('lintian finds no error, and each warning it gives is explained in docs/packaging.md', async () => {
    const r = await runCommand('lintian', [deb], { timeoutMs: 600_000 });
    const lines = r.stdout.split('\n').filter((l) => /^[EWX]: /.test(l));
    expect(lines.filter((l) => !l.startsWith('W: ')), 'lintian errors').to.deep.equal([]);
    const docs = fs.readFileSync(path.join(ROOT, 'docs', 'packaging.md'), 'utf8');
    for (const line of lines) {
      const tag = line.split(' ')[2];
      expect(docs, `docs/packaging.md explains lintian's ${tag}`).to.contain(`\`${tag}\``);
    }
  });

  it('installs with apt-get install ./govern_*.deb, and govern works from its Debian paths', async () => {
    await must('apt-get', ['install', ...APT_WAIT, '-y', '-q', `./${path.basename(deb)}`], { cwd: buildDir, env: APT_ENV });
    expect(await packageStatus()).to.equal('installed');

    const version = await must(GOVERN, ['--version']);
    expect(version.stdout).to.match(/^govern \d+\.\d+\.\d+\n$/);

    // The shipped facts, and the user's facts from /etc/govern/facts.d.
    writeFile(USER_FACT, '/etc/govern\n');
    const facts = await must(GOVERN, ['facts']);
    expect(facts.stdout).to.match(/^os\/family\tdebian$/m);
    expect(facts.stdout).to.match(/^govdeb_origin\t\/etc\/govern$/m);

    // A small tree applied with the installed runners (no other runners directory is searched).
    const tree = tempDir('govdeb-tree-');
    const target = path.join(tree, 'out');
    writeFile(
      path.join(tree, 'site.hcl'),
      `file "${target}" {\n  ensure = "present"\n  contents = "{{fact "os/family"}} {{fact "govdeb_origin"}}"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n` +
        `exec "/usr/bin/touch ${target}.done" {\n  creates = "${target}.done"\n  after = ["file:${target}"]\n}\n`,
    );
    const run = await runCommand(GOVERN, ['run', tree], { env: { ...HOST_ENV, GOVERN_RUNNERS_PATH: '', GOVERN_FACTS_PATH: '' } });
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(fs.readFileSync(target, 'utf8')).to.equal('debian /etc/govern');
    expect(fs.existsSync(`${target}.done`)).to.equal(true);
    const again = await runCommand(GOVERN, ['run', '--json', tree]);
    expect((JSON.parse(again.stdout) as RunReport).summary).to.deep.include({ changed: 0, failed: 0 });
  });

  it('has its man page where man finds it, and its bash completion', async () => {
    const man = await must('man', ['-w', 'govern']);
    expect(man.stdout.trim()).to.equal('/usr/share/man/man1/govern.1.gz');
    const page = await must('man', ['govern'], { env: { ...HOST_ENV, MANWIDTH: '100', PAGER: 'cat' } });
    expect(page.stdout).to.contain('/etc/govern/facts.d');
    const program = 'source /usr/share/bash-completion/completions/govern; COMP_WORDS=(govern facts os/fa); COMP_CWORD=2; _govern; echo "${COMPREPLY[@]}"';
    const completion = await must('bash', ['-c', program]);
    expect(completion.stdout.trim()).to.equal('os/family');
  });

  it('describes every runner it ships, from the runners themselves', async () => {
    const description = (await must('dpkg-deb', ['--field', deb, 'Description'])).stdout;
    for (const runner of fs.readdirSync(path.join(ROOT, 'runners'))) expect(description, runner).to.match(new RegExp(`^  ${runner}: \\S`, 'm'));
    expect(description.split('\n').filter((l) => l.length > 80), 'lines over 80 columns').to.deep.equal([]);
  });

  it('pulls a tree into /etc/govern/states and runs it from there, with its records in /var/lib/govern', async () => {
    const repo = tempDir('govdeb-repo-');
    const target = path.join(tempDir('govdeb-pulled-'), 'out');
    await must('git', ['init', '--quiet', '--initial-branch=main', repo]);
    writeFile(path.join(repo, 'site.hcl'), `file "${target}" {\n  ensure = "present"\n  contents = "pulled"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    await must('git', ['-C', repo, 'add', '--all']);
    await must('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '--quiet', '--no-gpg-sign', '-m', 'one']);
    await must(GOVERN, ['pull', repo]);
    expect(fs.realpathSync('/etc/govern/states').startsWith('/var/lib/govern/pull/')).to.equal(true);
    await must(GOVERN, ['run'], { env: { ...HOST_ENV, GOVERN_RUNNERS_PATH: '', GOVERN_FACTS_PATH: '' } });
    expect(fs.readFileSync(target, 'utf8')).to.equal('pulled');
    expect(fs.existsSync('/var/lib/govern/last-run.json')).to.equal(true);
  });

  it('keeps an edited conffile when the package is installed again', async () => {
    const motd = '/etc/govern/templates.d/motd';
    fs.appendFileSync(motd, '# edited by the sysadmin\n');
    await must('apt-get', ['install', ...APT_WAIT, '-y', '-q', '--reinstall', `./${path.basename(deb)}`], { cwd: buildDir, env: APT_ENV });
    expect(fs.readFileSync(motd, 'utf8')).to.contain('# edited by the sysadmin\n');
  });

  it('apt-get purge leaves nothing of it, and the make install layout is untouched', async () => {
    fs.rmSync(USER_FACT, { force: true });
    await must('apt-get', ['purge', ...APT_WAIT, '-y', '-q', 'govern'], { env: APT_ENV });
    expect(await packageStatus()).to.be.oneOf(['unknown', 'not-installed']);
    const ours = contents.filter((p) => !['/etc', '/usr', '/usr/bin', '/usr/lib', '/usr/share', '/usr/share/doc', '/usr/share/man', '/usr/share/man/man1',
      '/usr/share/bash-completion', '/usr/share/bash-completion/completions', '/lib', '/lib/systemd', '/lib/systemd/system'].includes(p));
    expect(ours.filter((p) => fs.existsSync(p)), 'left behind').to.deep.equal([]);
    expect(fs.existsSync('/var/cache/govern'), 'the runner cache').to.equal(false);
    expect(fs.existsSync('/var/lib/govern'), 'the records and pulled trees').to.equal(false);
    expect(fs.lstatSync('/etc/govern/states', { throwIfNoEntry: false }), "govern pull's link").to.equal(undefined);
    expect(fingerprint(MAKE_INSTALL_LAYOUT)).to.deep.equal(localLayout);
  });
});
