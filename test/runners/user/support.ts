// Helpers for the user and group runners' tests against the real account databases: their
// checksums, the entries as getent gives them, and removal of the test's accounts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { runCommand } from '../../../src/shared/process.js';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

export const ACCOUNT_FILES = ['/etc/passwd', '/etc/group', '/etc/shadow', '/etc/gshadow'];

/** SHA-256 of each account database file: a run that changes nothing leaves them all alike. */
export function accountChecksums(): Record<string, string> {
  return Object.fromEntries(ACCOUNT_FILES.map((f) => [f, crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex')]));
}

/** The getent entry's fields, or undefined. */
export async function entry(db: 'passwd' | 'group' | 'shadow', key: string): Promise<string[] | undefined> {
  const r = await runCommand('getent', [db, key]);
  return r.code === 0 ? r.stdout.trim().split(':') : undefined;
}

/** A real SHA-512 crypt hash of a password. */
export async function sha512Hash(password: string): Promise<string> {
  const r = await runCommand('openssl', ['passwd', '-6', '-stdin'], { input: password });
  if (r.code !== 0) throw new Error(`openssl passwd: ${r.stderr}`);
  return r.stdout.trim();
}

/** Removes the test's users (with their homes) then groups, whatever state a failed test left. */
export async function removeAccounts(users: string[], groups: string[]): Promise<void> {
  for (const user of users) {
    if (await entry('passwd', user)) await runCommand('userdel', ['-r', '-f', '--', user]);
    fs.rmSync(path.join('/home', user), { recursive: true, force: true });
  }
  for (const group of groups) if (await entry('group', group)) await runCommand('groupdel', ['--', group]);
}

export interface Applied {
  code: number | null;
  report: RunReport;
  stdout: string;
  stderr: string;
}

/** `govern run --json` of one state file in a temporary directory. */
export async function runState(hcl: string, extra: string[] = []): Promise<Applied> {
  const file = writeFile(path.join(tempDir('govtest17-'), 'accounts.hcl'), hcl);
  const r = await govern(['run', file, '--json', ...extra]);
  let report: RunReport;
  try {
    report = JSON.parse(r.stdout) as RunReport;
  } catch {
    throw new Error(`govern run --json printed no report (exit ${r.code}): ${r.stdout}${r.stderr}`);
  }
  return { code: r.code, report, stdout: r.stdout, stderr: r.stderr };
}
