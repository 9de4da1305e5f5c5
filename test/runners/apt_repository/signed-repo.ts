// A signed, offline APT repository for the apt_repository tests: the pkg tests' tiny .deb packages
// in a flat repository, its Release signed (InRelease) with a key made for the test in a private
// GNUPGHOME; and an apt confined to a directory of the test's own through APT_CONFIG (its sources,
// keyrings, lists and cache), so the machine's apt configuration is never touched. Packages are
// installed into the machine's dpkg for real, and purged by cleanup().
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../support/tmp.js';
import { AptTestRepo, must, scratchDir, type TestPackage } from '../pkg/repos.js';

export interface TestKey {
  /** Its GNUPGHOME: remove it with removeKeys() when the suite ends. */
  home: string;
  fingerprint: string;
  /** The public key, armored. */
  armored: string;
}

/** A signing key (ed25519 unless told, no passphrase) in a GNUPGHOME of its own. */
export async function makeKey(label: string, algorithm = 'ed25519'): Promise<TestKey> {
  const home = scratchDir('govern-gpg-');
  fs.chmodSync(home, 0o700);
  const env = { GNUPGHOME: home };
  await must('gpg', ['--batch', '--quiet', '--passphrase', '', '--quick-gen-key', `${label} <${label}@localhost>`, algorithm, 'sign', 'never'], { env });
  const listing = await must('gpg', ['--batch', '--with-colons', '--list-keys'], { env });
  const fingerprint = /^fpr:+([0-9A-F]+):/m.exec(listing.stdout)![1];
  const armored = (await must('gpg', ['--batch', '--armor', '--export', fingerprint], { env })).stdout;
  return { home, fingerprint, armored };
}

export function removeKeys(...keys: (TestKey | undefined)[]): void {
  for (const key of keys) {
    if (!key) continue;
    // The agent gpg started for this GNUPGHOME goes with it.
    spawnSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: key.home }, stdio: 'ignore' });
    fs.rmSync(key.home, { recursive: true, force: true });
  }
}

export class SignedAptRepo {
  readonly repo: AptTestRepo;
  constructor(packageNames: string[]) {
    this.repo = new AptTestRepo(scratchDir('govern-repos-apt-'), packageNames);
  }

  get dir(): string {
    return this.repo.dir;
  }

  /** Builds the packages and signs the repository's Release with the key. */
  async build(packages: TestPackage[], key: TestKey): Promise<void> {
    await this.repo.build(packages);
    const index = fs.readFileSync(path.join(this.dir, 'Packages'));
    const sha256 = crypto.createHash('sha256').update(index).digest('hex');
    const release = `Date: ${new Date().toUTCString()}\nSHA256:\n ${sha256} ${index.length} Packages\n`;
    fs.writeFileSync(path.join(this.dir, 'Release'), release);
    await must('gpg', ['--batch', '--yes', '--clearsign', '-u', key.fingerprint, '-o', path.join(this.dir, 'InRelease'), path.join(this.dir, 'Release')], { env: { GNUPGHOME: key.home } });
  }

  /** Purges the test packages (the repository's own cleanup; it added no source to the machine's apt). */
  async cleanup(): Promise<void> {
    await this.repo.cleanup();
  }
}

/**
 * An apt configuration of the test's own, for one test (removed after it): APT_CONFIG=<root>/apt.conf;
 * apt reads sources from sourcesDir.
 */
export function confinedApt(): { root: string; env: Record<string, string>; sourcesDir: string; keyringsDir: string; listsDir: string } {
  const root = tempDir('govern-repos-aptroot-');
  fs.chmodSync(root, 0o755);
  for (const dir of ['etc/apt/apt.conf.d', 'etc/apt/preferences.d', 'etc/apt/sources.list.d', 'lists/partial', 'cache/archives/partial']) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
  }
  const conf = [`Dir::Etc "${root}/etc/apt";`, `Dir::State::Lists "${root}/lists";`, `Dir::Cache "${root}/cache";`, ''];
  fs.writeFileSync(path.join(root, 'apt.conf'), conf.join('\n'));
  return {
    root,
    env: { APT_CONFIG: path.join(root, 'apt.conf') },
    sourcesDir: path.join(root, 'etc/apt/sources.list.d'),
    keyringsDir: path.join(root, 'etc/apt/keyrings'),
    listsDir: path.join(root, 'lists'),
  };
}
