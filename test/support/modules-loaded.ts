// What a govern process loaded: the files in require.cache when it exits, read by a probe that starts
// the script as `node script args` would. For the tests that hold a command to the code it uses.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';

/** The modules a process started with `script args` had loaded when it exited. */
export function modulesLoaded(script: string, args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const probe = `process.argv.splice(1, Infinity, ${JSON.stringify(script)}, ...${JSON.stringify(args)});
process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));
require(${JSON.stringify(script)});`;
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).to.equal(0);
  return JSON.parse(r.stderr.slice(r.stderr.lastIndexOf('["'))) as string[];
}

/**
 * The same for a process that reads its stdin until it decides to exit (a language server, told
 * `exit`): `input` is written and stdin left open, so that its end is no message of its own.
 */
export function modulesLoadedServing(script: string, args: string[], input: string): Promise<string[]> {
  const probe = `process.argv.splice(1, Infinity, ${JSON.stringify(script)}, ...${JSON.stringify(args)});
process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));
require(${JSON.stringify(script)});`;
  const child = spawn(process.execPath, ['-e', probe], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  child.stdin.write(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      child.stdin.destroy();
      if (code !== 0) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve(JSON.parse(stderr.slice(stderr.lastIndexOf('["'))) as string[]);
    });
  });
}
