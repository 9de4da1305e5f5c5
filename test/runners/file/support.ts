// Helpers for the file runner's end-to-end tests: calling the real executable, snapshots of a
// directory tree, and a throwaway user and group.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../../src/shared/process.js';
import { runnerOutcome, type RunnerOutcome } from '../../support/cli.js';

export type FileRun = RunnerOutcome;

/** `runners/file PATH key=value...` with GOVERN_* variables from env. */
export function fileRunner(target: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<FileRun> {
  return runnerOutcome('file', [target, ...args], { env });
}

export const ROOT_ATTRS = ['owner=root', 'group=root'];

export function sha256(data: Buffer | string): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

export function modeOf(p: string): number {
  return fs.lstatSync(p).mode & 0o7777;
}

/**
 * Everything about every entry under root that a change would touch: type, permissions, owner,
 * size, inode, change and modification times, content hash and link target, and a regular file's
 * access time (the runner reads files with O_NOATIME).
 */
export function snapshot(root: string): Record<string, Record<string, string>> {
  const entries: Record<string, Record<string, string>> = {};
  const walk = (p: string) => {
    const st = fs.lstatSync(p, { bigint: true });
    const entry: Record<string, string> = {
      mode: st.mode.toString(8),
      uid: String(st.uid),
      gid: String(st.gid),
      size: String(st.size),
      ino: String(st.ino),
      mtime: String(st.mtimeNs),
      ctime: String(st.ctimeNs),
    };
    if (st.isFile()) {
      entry.sha256 = sha256(readWithoutAtime(p));
      entry.atime = String(st.atimeNs);
    }
    if (st.isSymbolicLink()) entry.target = fs.readlinkSync(p);
    entries[path.relative(root, p) || '.'] = entry;
    if (st.isDirectory()) for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
  };
  walk(root);
  return entries;
}

/** Reads a file without changing its access time (the snapshot itself must not change the tree). */
export function readWithoutAtime(p: string): Buffer {
  const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOATIME);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Names in a directory that look like the runner's temporary files. */
export function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.includes('.govern-'));
}

async function must(command: string, args: string[]): Promise<void> {
  const r = await runCommand(command, args, { timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
}

/** A real user and group with unique names, for ownership tests; remove() deletes both. */
export class TestAccount {
  readonly user = `gft${crypto.randomBytes(4).toString('hex')}`;
  readonly group = `gfg${crypto.randomBytes(4).toString('hex')}`;
  uid = -1;
  gid = -1;

  async create(): Promise<void> {
    await must('groupadd', [this.group]);
    await must('useradd', ['--no-create-home', '--no-user-group', '--gid', this.group, '--shell', '/usr/sbin/nologin', this.user]);
    this.uid = Number((await runCommand('id', ['-u', this.user])).stdout.trim());
    this.gid = Number((await runCommand('getent', ['group', this.group])).stdout.split(':')[2]);
  }

  async remove(): Promise<void> {
    await runCommand('userdel', [this.user]);
    await runCommand('groupdel', [this.group]);
  }
}
