// The built-in runners of govern's own runners directory, in persistent mode, share processes: one
// process (dist/bundle/runner-host.js, src/runners/host/main.ts) serves all of them, so that a run
// of four kinds of resources starts one Node process for its runners rather than four. A runner of
// the same name found elsewhere (a user's, the state tree's) is not the built-in one: it runs in
// its own process, as any runner does. The host is run by the Node running govern, from govern's
// own tree, and speaks the persistent protocol with the runner's name in each request.
import fs from 'node:fs';
import path from 'node:path';
import { defaultDirs, GOVERN_ROOT } from '../config/paths.js';
import { isHostedRunner } from '../runners/registry.js';

export interface RunnerHost {
  /** The runner the host serves for this executable; undefined: the executable runs in its own processes. */
  serves(executable: string): string | undefined;
  /** How the host is started: a program and its arguments. */
  command: readonly [string, string[]];
}

/** The host of this installation's built-in runners; undefined when it is not built (dist/bundle). */
export function builtInRunnerHost(root = GOVERN_ROOT, shippedRunners = defaultDirs(root).shippedRunners): RunnerHost | undefined {
  const script = path.join(root, 'dist', 'bundle', 'runner-host.js');
  if (!fs.existsSync(script)) return undefined;
  const dir = path.resolve(shippedRunners);
  return {
    serves(executable) {
      const name = path.basename(executable);
      return path.dirname(path.resolve(executable)) === dir && isHostedRunner(name) ? name : undefined;
    },
    command: [process.execPath, [script]],
  };
}
