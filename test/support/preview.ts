// What the tests of `govern plan` and `govern diff` share: hosts' facts snapshots, and a real git
// repository whose commits hold a state tree.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir, writeFile } from './tmp.js';

/** A directory of `govern facts --json` snapshots, one per host (HOST.json). */
export function snapshots(hosts: Record<string, Record<string, string>>): string {
  const dir = tempDir('govern-snapshots-');
  for (const [host, facts] of Object.entries(hosts)) writeFile(path.join(dir, `${host}.json`), JSON.stringify(facts));
  return dir;
}

export interface Repository {
  dir: string;
  /** Writes the files (null: removes one), commits everything, returns the commit. */
  commit(files: Record<string, string | null>, message: string): string;
}

/** A real git repository (in `dir`, or a new directory), committed as the test says. */
export function repository(dir = tempDir('govern-diff-repo-')): Repository {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.org');
  git('config', 'user.name', 'test');
  return {
    dir,
    commit(files, message) {
      for (const [name, content] of Object.entries(files)) {
        if (content === null) fs.rmSync(path.join(dir, name));
        else writeFile(path.join(dir, name), content);
      }
      git('add', '-A');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD');
    },
  };
}
