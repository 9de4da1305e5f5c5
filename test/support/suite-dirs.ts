// The suite's own lock, cache and var directories, set in the environment every govern and runner the
// tests start inherits (and govern's code the tests call in-process reads): two test runs at once, or
// a test run beside a real govern, never wait on each other's run lock or share /var/cache/govern;
// and every apt-get waits for dpkg's lock rather than failing.
// A test about one of these directories gives a directory of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-suite-'));
process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));

function own(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

export const TEST_LOCK_DIR = own('lock');
export const TEST_CACHE_DIR = own('cache');
export const TEST_VAR_DIR = own('var');

process.env.GOVERN_LOCK_DIR = TEST_LOCK_DIR;
process.env.GOVERN_CACHE_DIR = TEST_CACHE_DIR;
process.env.GOVERN_VAR_DIR = TEST_VAR_DIR;

// Every apt-get the tests start (their own and govern's) waits for dpkg's lock that another run
// holds, rather than failing at once. APT reads this file before its own configuration.
const aptConfig = path.join(root, 'apt.conf');
fs.writeFileSync(aptConfig, 'DPkg::Lock::Timeout "600";\n');
process.env.APT_CONFIG ??= aptConfig;
