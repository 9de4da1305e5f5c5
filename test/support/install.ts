// `make install` of this checkout into a temporary prefix: a govern installed as a user installs it,
// in a directory every user can enter (a checkout may sit where only root can, /root for one).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { ROOT } from './cli.js';

export interface TempInstall {
  prefix: string;
  /** PREFIX/lib/govern/bin: the installed runners. */
  runnersDir: string;
  remove(): void;
}

/** Installs with PREFIX (and SYSCONFDIR, PREFIX/etc) under a new 0755 directory of os.tmpdir(). */
export async function installToTempPrefix(): Promise<TempInstall> {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-install-'));
  fs.chmodSync(top, 0o755);
  const prefix = path.join(top, 'usr', 'local');
  // -o build: the suite runs from dist/, which is built already; do not rewrite it under the tests' feet.
  const make = await runCommand('make', ['-C', ROOT, '-o', 'build', 'install', `PREFIX=${prefix}`], { timeoutMs: 600_000 });
  if (make.code !== 0) throw new Error(`make install failed (${make.code}): ${make.stderr}`);
  return { prefix, runnersDir: path.join(prefix, 'lib', 'govern', 'bin'), remove: () => fs.rmSync(top, { recursive: true, force: true }) };
}
