// Git repositories for the pull tests: a working clone where commits are made (signed by git with
// SSH keys from ssh-keygen, or not) and the bare repository hosts pull from.
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { tempDir, writeFile } from '../support/tmp.js';

export async function must(command: string, args: string[], cwd?: string): Promise<string> {
  const r = await runCommand(command, args, { cwd, timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

export type Signer = 'trusted' | 'stranger' | 'unsigned';

export interface GitLab {
  dir: string;
  work: string;
  bare: string;
  /** ssh-keygen's allowed signers file, naming the trusted key only. */
  allowedSigners: string;
  /**
   * Commits these files (path -> content, replacing the tree) and pushes to `branch`; returns the
   * commit. `trailers` ("Govern-Ref: production") end its message.
   */
  commit(files: Record<string, string>, signer: Signer, branch?: string, trailers?: string[]): Promise<string>;
  /** Points `branch` of the bare repository at `commit`, as a force-push (or a reset on the server) would. */
  push(commit: string, branch?: string): Promise<void>;
  /** A copy of a signed commit with its message changed, so its signature no longer matches; pushed to `branch`. */
  tampered(commit: string, branch?: string): Promise<string>;
}

export async function gitLab(): Promise<GitLab> {
  const dir = tempDir('govern-fleet-git-');
  const keys = { trusted: path.join(dir, 'trusted'), stranger: path.join(dir, 'stranger') };
  for (const key of Object.values(keys)) await must('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', path.basename(key), '-f', key]);
  const allowedSigners = writeFile(path.join(dir, 'allowed_signers'), `ops@example.org ${fs.readFileSync(`${keys.trusted}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}\n`);
  const bare = path.join(dir, 'states.git');
  await must('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const work = path.join(dir, 'work');
  await must('git', ['init', '--quiet', '--initial-branch=main', work]);
  for (const [k, v] of [['user.name', 'Ops'], ['user.email', 'ops@example.org'], ['gpg.format', 'ssh'], ['commit.gpgsign', 'false']]) {
    await must('git', ['-C', work, 'config', k, v]);
  }
  let count = 0;
  return {
    dir,
    work,
    bare,
    allowedSigners,
    async commit(files, signer, branch = 'main', trailers = []) {
      for (const name of fs.readdirSync(work)) if (name !== '.git') fs.rmSync(path.join(work, name), { recursive: true });
      for (const [name, content] of Object.entries(files)) writeFile(path.join(work, name), content, content.startsWith('#!') ? 0o755 : 0o644);
      await must('git', ['-C', work, 'add', '--all']);
      const sign = signer === 'unsigned' ? ['--no-gpg-sign'] : ['-c', `user.signingkey=${keys[signer]}`, 'commit', '-S'];
      const args = signer === 'unsigned' ? ['commit', ...sign] : sign;
      const message = ['-m', `change ${++count}`, ...(trailers.length > 0 ? ['-m', trailers.join('\n')] : [])];
      await must('git', ['-C', work, ...args, '--quiet', '--allow-empty', ...message]);
      await must('git', ['-C', work, 'push', '--quiet', '--force', bare, `HEAD:refs/heads/${branch}`]);
      return must('git', ['-C', work, 'rev-parse', 'HEAD']);
    },
    async push(commit, branch = 'main') {
      await must('git', ['-C', work, 'push', '--quiet', '--force', bare, `${commit}:refs/heads/${branch}`]);
    },
    async tampered(commit, branch = 'main') {
      const object = (await must('git', ['-C', work, 'cat-file', 'commit', commit])).replace(/\n\nchange (\d+)$/, '\n\nchange $1, altered');
      const file = writeFile(path.join(dir, 'tampered'), `${object}\n`);
      const id = await must('git', [`--git-dir=${bare}`, 'hash-object', '-w', '-t', 'commit', file]);
      await must('git', [`--git-dir=${bare}`, 'update-ref', `refs/heads/${branch}`, id]);
      return id;
    },
  };
}
