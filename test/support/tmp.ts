// Temporary directories for tests, removed after the test that made them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

export function tempDir(prefix = 'govern-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes a file, creating its parent directories; returns its path. */
export function writeFile(file: string, content: string, mode = 0o644): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

let current: string | undefined;

/** The full title of the test running now (undefined in a describe's hooks). */
export function currentTestTitle(): string | undefined {
  return current;
}

// Root hooks: every test file's temporary directories go when the test ends.
export const mochaHooks = {
  beforeEach(this: Mocha.Context) {
    current = this.currentTest?.fullTitle();
  },
  afterEach() {
    current = undefined;
    removeTempDirs();
  },
};
