// Real, offline package repositories for the pkg runner's end-to-end tests: tiny .deb packages
// indexed by dpkg-scanpackages behind a `deb [trusted=yes] file:` source, and tiny noarch rpms
// indexed by createrepo_c behind a .repo file. Everything made here is removed by cleanup(),
// which the suites call from after() hooks (and before(), for leftovers of an interrupted run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type RunResult } from '../../../src/shared/process.js';

export interface TestPackage {
  name: string;
  /** [epoch:]version-revision (Debian) or [epoch:]version-release (RPM). */
  version: string;
  /** Ship this file under /etc as a conffile (Debian), so `apt-get remove` leaves config-files. */
  conffile?: string;
  /** Make the postinst fail while this file exists (Debian), to leave the package half-configured. */
  failPostinstWhile?: string;
  /** More files the package ships: absolute path -> content and mode. */
  files?: Record<string, { content: string; mode: number }>;
}

export async function must(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  const result = await runCommand(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, timeoutMs: 300_000 });
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}): ${result.stderr}${result.stdout}`);
  return result;
}

/**
 * `dpkg --purge NAMES`, waiting while another program holds dpkg's lock (another suite's apt-get, or
 * anything else on the host): dpkg fails at once where apt-get waits (DPkg::Lock::Timeout,
 * suite-dirs.ts). It tries again when the lock is released, for up to 10 minutes as apt-get would.
 */
export async function dpkgPurge(names: string[]): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const result = await runCommand('dpkg', ['--purge', ...names], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 300_000 });
    if (result.code === 0) return;
    if (!/lock was locked by another process/.test(result.stderr) || Date.now() > deadline) {
      throw new Error(`dpkg --purge ${names.join(' ')} failed (${result.code}): ${result.stderr}${result.stdout}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function have(command: string): Promise<boolean> {
  return (await runCommand('sh', ['-c', 'command -v "$1" >/dev/null', 'sh', command])).code === 0;
}

export function scratchDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// ---------------------------------------------------------------------------------------------
// APT

export class AptTestRepo {
  readonly listFile: string;
  constructor(
    readonly dir: string,
    readonly packageNames: string[],
  ) {
    this.listFile = `/etc/apt/sources.list.d/${path.basename(dir)}.list`;
  }

  async build(packages: TestPackage[]): Promise<void> {
    // apt reads the repository as its unprivileged _apt user.
    fs.chmodSync(this.dir, 0o755);
    const pool = path.join(this.dir, 'pool');
    fs.mkdirSync(pool, { recursive: true });
    for (const p of packages) {
      const root = path.join(this.dir, 'build', `${p.name}_${p.version.replace(':', '%')}`);
      const control = [`Package: ${p.name}`, `Version: ${p.version}`, 'Architecture: all', 'Maintainer: govern tests <root@localhost>', `Description: govern test package ${p.version}`, ''];
      writeFile(path.join(root, 'DEBIAN', 'control'), control.join('\n'));
      writeFile(path.join(root, 'usr', 'share', p.name, 'version'), `${p.version}\n`);
      if (p.conffile) {
        writeFile(path.join(root, p.conffile), 'setting = 1\n');
        writeFile(path.join(root, 'DEBIAN', 'conffiles'), `${p.conffile}\n`);
      }
      for (const [file, { content, mode }] of Object.entries(p.files ?? {})) writeFile(path.join(root, file), content, mode);
      if (p.failPostinstWhile) {
        const script = `#!/bin/sh\nif [ "$1" = configure ] && [ -e '${p.failPostinstWhile}' ]; then echo "postinst told to fail" >&2; exit 1; fi\nexit 0\n`;
        writeFile(path.join(root, 'DEBIAN', 'postinst'), script, 0o755);
      }
      const file = `${p.name}_${p.version.replace(/^[0-9]+:/, '')}_all.deb`;
      await must('dpkg-deb', ['--root-owner-group', '--build', root, path.join(pool, file)]);
    }
    const index = await must('dpkg-scanpackages', ['--multiversion', 'pool', '/dev/null'], { cwd: this.dir });
    fs.writeFileSync(path.join(this.dir, 'Packages'), index.stdout);
  }

  /**
   * Adds the source and refreshes it alone (no network: the other sources are not touched). A source
   * of the same kind an interrupted run left (same prefix, another random part) goes first: it may
   * offer the same package and version, built from other files, and apt would take either.
   */
  async add(): Promise<void> {
    const kind = path.basename(this.dir).slice(0, -6);
    for (const file of fs.readdirSync('/etc/apt/sources.list.d')) {
      if (file.startsWith(kind) && file.endsWith('.list') && file !== path.basename(this.listFile)) {
        await new AptTestRepo(path.join(path.dirname(this.dir), file.slice(0, -'.list'.length)), []).cleanup();
      }
    }
    fs.writeFileSync(this.listFile, `deb [trusted=yes] file:${this.dir} ./\n`);
    await must('apt-get', ['update', '-q', '-o', `Dir::Etc::sourcelist=${this.listFile}`, '-o', 'Dir::Etc::sourceparts=-', '-o', 'APT::Get::List-Cleanup=0']);
  }

  /** Purges the test packages, removes the source and apt's copy of its index. Safe to call twice. */
  async cleanup(): Promise<void> {
    const installed: string[] = [];
    for (const name of this.packageNames) if ((await dpkgStatus(name)) !== 'unknown') installed.push(name);
    if (installed.length > 0) await dpkgPurge(installed);
    fs.rmSync(this.listFile, { force: true });
    const prefix = this.dir.replace(/\//g, '_');
    for (const file of fs.readdirSync('/var/lib/apt/lists')) {
      if (file.startsWith(prefix)) fs.rmSync(path.join('/var/lib/apt/lists', file), { force: true });
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** "1.0-1 installed", "1.0-1 config-files", or "unknown" when dpkg has no record of the package. */
export async function dpkgStatus(name: string): Promise<string> {
  const result = await runCommand('dpkg-query', ['-W', '-f=${Version} ${db:Status-Status}', name], { env: { ...process.env, LC_ALL: 'C' } });
  if (result.code !== 0) return 'unknown';
  return result.stdout.trim();
}

/** Every package dpkg knows whose name starts with the prefix: leftovers of an interrupted run. */
export async function dpkgLeftovers(prefix: string): Promise<string[]> {
  const result = await runCommand('dpkg-query', ['-W', '-f=${Package}\n', `${prefix}*`], { env: { ...process.env, LC_ALL: 'C' } });
  return result.code === 0 ? result.stdout.split('\n').filter((l) => l !== '') : [];
}

// ---------------------------------------------------------------------------------------------
// DNF

const SPEC = `Name: %{pkgname}
Version: %{pkgversion}
Release: %{pkgrelease}
%{?pkgepoch:Epoch: %{pkgepoch}}
Summary: govern test package
License: MIT
BuildArch: noarch

%description
A package for govern's tests.

%install
mkdir -p %{buildroot}/usr/share/%{name}
echo %{version}-%{release} > %{buildroot}/usr/share/%{name}/version

%files
/usr/share/%{name}/version
`;

export class DnfTestRepo {
  readonly repoId: string;
  readonly repoFile: string;
  private madeReposDir = false;
  constructor(
    readonly dir: string,
    readonly packageNames: string[],
  ) {
    this.repoId = path.basename(dir);
    this.repoFile = `/etc/yum.repos.d/${this.repoId}.repo`;
  }

  async build(packages: TestPackage[]): Promise<void> {
    const spec = writeFile(path.join(this.dir, 'test.spec'), SPEC);
    const repo = path.join(this.dir, 'repo');
    fs.mkdirSync(repo, { recursive: true });
    for (const p of packages) {
      const match = /^(?:([0-9]+):)?([^-]+)-([^-]+)$/.exec(p.version);
      if (!match) throw new Error(`test rpm version must be [epoch:]version-release: ${p.version}`);
      const [, epoch, version, release] = match;
      const defines = ['_topdir', path.join(this.dir, 'rpmbuild'), 'pkgname', p.name, 'pkgversion', version, 'pkgrelease', release];
      if (epoch) defines.push('pkgepoch', epoch);
      const args: string[] = [];
      for (let k = 0; k < defines.length; k += 2) args.push('--define', `${defines[k]} ${defines[k + 1]}`);
      await must('rpmbuild', ['--quiet', ...args, '-bb', spec]);
    }
    const built = path.join(this.dir, 'rpmbuild', 'RPMS', 'noarch');
    for (const file of fs.readdirSync(built)) fs.copyFileSync(path.join(built, file), path.join(repo, file));
    await must('createrepo_c', ['--quiet', repo]);
  }

  /** Adds the .repo file (metadata never cached, so every dnf call sees the repository as it is). */
  add(): void {
    if (!fs.existsSync('/etc/yum.repos.d')) {
      fs.mkdirSync('/etc/yum.repos.d');
      this.madeReposDir = true;
    }
    const lines = [`[${this.repoId}]`, 'name=govern tests', `baseurl=file://${path.join(this.dir, 'repo')}`, 'enabled=1', 'gpgcheck=0', 'metadata_expire=0', ''];
    fs.writeFileSync(this.repoFile, lines.join('\n'));
  }

  /** Erases the test packages, removes the .repo file, dnf's cache of it and the build tree. Safe to call twice. */
  async cleanup(): Promise<void> {
    const installed: string[] = [];
    for (const name of this.packageNames) if ((await rpmStatus(name)) !== 'absent') installed.push(name);
    if (installed.length > 0) await must('rpm', ['-e', ...installed]);
    fs.rmSync(this.repoFile, { force: true });
    if (this.madeReposDir && fs.readdirSync('/etc/yum.repos.d').length === 0) fs.rmdirSync('/etc/yum.repos.d');
    if (fs.existsSync('/var/cache/dnf')) {
      for (const file of fs.readdirSync('/var/cache/dnf')) {
        if (file.startsWith(this.repoId)) fs.rmSync(path.join('/var/cache/dnf', file), { recursive: true, force: true });
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** "E:V-R" of the installed package, or "absent". */
export async function rpmStatus(name: string): Promise<string> {
  const result = await runCommand('rpm', ['-q', name, '--queryformat', '%|EPOCH?{%{EPOCH}}:{0}|:%{VERSION}-%{RELEASE}\n'], { env: { ...process.env, LC_ALL: 'C' } });
  if (result.code !== 0) return 'absent';
  return result.stdout.trim();
}

function writeFile(file: string, content: string, mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}
