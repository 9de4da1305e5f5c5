// A real, offline pacman world for the pkg runner's tests: tiny packages built by makepkg (as
// nobody: makepkg refuses root), one sync repository per version made with repo-add, and a
// pacman.conf whose RootDir, DBPath, CacheDir and LogFile are all inside a scratch directory, so
// this Debian host's own files are never touched. `pacman` on the tests' PATH is a wrapper that
// runs the real /usr/bin/pacman with that --config.
import fs from 'node:fs';
import path from 'node:path';
import { must, scratchDir } from './repos.js';

export interface PacmanRepoSpec {
  /** The repository's name in pacman.conf; listed in the given order, so the first one is what `pacman -S NAME` takes. */
  repo: string;
  /** [epoch:]pkgver-pkgrel */
  version: string;
}

export class PacmanTestWorld {
  readonly dir = scratchDir('govern-pkg-pacman-');
  readonly bin = path.join(this.dir, 'bin');
  readonly config = path.join(this.dir, 'pacman.conf');

  constructor(readonly packageName: string) {
    fs.chmodSync(this.dir, 0o755);
  }

  /** The environment that puts the wrapped pacman first on PATH. */
  get env(): NodeJS.ProcessEnv {
    return { PATH: `${this.bin}:${process.env.PATH}` };
  }

  async build(specs: PacmanRepoSpec[]): Promise<void> {
    await Promise.all(specs.map((spec) => this.buildOne(spec)));
    const root = path.join(this.dir, 'root');
    fs.mkdirSync(path.join(root, 'var/lib/pacman'), { recursive: true });
    const lines = [
      '[options]',
      `RootDir = ${root}`,
      `DBPath = ${root}/var/lib/pacman/`,
      `CacheDir = ${this.dir}/cache/`,
      `LogFile = ${this.dir}/pacman.log`,
      `GPGDir = ${this.dir}/gnupg/`,
      `HookDir = ${this.dir}/hooks/`,
      'Architecture = auto',
      'SigLevel = Never',
      'LocalFileSigLevel = Never',
      ...specs.flatMap((spec) => ['', `[${spec.repo}]`, `Server = file://${path.join(this.dir, 'repos', spec.repo)}`]),
      '',
    ];
    fs.writeFileSync(this.config, lines.join('\n'));
    fs.mkdirSync(this.bin);
    fs.writeFileSync(path.join(this.bin, 'pacman'), `#!/bin/sh\nexec /usr/bin/pacman --config '${this.config}' "$@"\n`, { mode: 0o755 });
    await must('pacman', ['-Sy'], { env: this.env });
  }

  private async buildOne(spec: PacmanRepoSpec): Promise<void> {
    const match = /^(?:([0-9]+):)?([^-]+)-([^-]+)$/.exec(spec.version);
    if (!match) throw new Error(`test package version must be [epoch:]pkgver-pkgrel: ${spec.version}`);
    const [, epoch, pkgver, pkgrel] = match;
    const build = path.join(this.dir, 'build', spec.repo);
    fs.mkdirSync(build, { recursive: true });
    const pkgbuild = [
      `pkgname=${this.packageName}`,
      `pkgver=${pkgver}`,
      `pkgrel=${pkgrel}`,
      ...(epoch ? [`epoch=${epoch}`] : []),
      'pkgdesc="govern pkg runner test package"',
      'arch=(any)',
      'license=(MIT)',
      `package() { mkdir -p "$pkgdir/usr/share/${this.packageName}"; echo '${spec.version}' > "$pkgdir/usr/share/${this.packageName}/version"; }`,
      '',
    ];
    fs.writeFileSync(path.join(build, 'PKGBUILD'), pkgbuild.join('\n'));
    await must('chown', ['-R', 'nobody', path.join(this.dir, 'build')]);
    await must('runuser', ['-u', 'nobody', '--', 'makepkg', '--nodeps', '--nocheck', '--noprogressbar'], {
      cwd: build,
      env: { PKGEXT: '.pkg.tar.gz', HOME: build, BUILDDIR: path.join(build, 'work') },
    });
    const file = fs.readdirSync(build).find((f) => f.endsWith('.pkg.tar.gz'))!;
    const repo = path.join(this.dir, 'repos', spec.repo);
    fs.mkdirSync(repo, { recursive: true });
    fs.copyFileSync(path.join(build, file), path.join(repo, file));
    await must('repo-add', ['-q', path.join(repo, `${spec.repo}.db.tar.gz`), path.join(repo, file)]);
  }

  /** The installed version in the scratch root, or "absent". */
  async status(): Promise<string> {
    const r = await must('sh', ['-c', `pacman -Q -- '${this.packageName}' 2>/dev/null || echo absent`], { env: { ...this.env, LC_ALL: 'C' } });
    const out = r.stdout.trim();
    return out === 'absent' ? out : out.split(' ')[1];
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
