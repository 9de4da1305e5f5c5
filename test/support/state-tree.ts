// A state tree in a temporary directory, with recording runners (pkg, service, file, exec, stuff)
// and a facts directory of its own, run through the real CLI.
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern } from './cli.js';
import { callRefs, runnersWith } from './recording-runner.js';
import { tempDir, writeFile } from './tmp.js';

export interface Tree {
  dir: string;
  states: string;
  runners: string;
  log: string;
  facts: string;
  run(extra?: string[], env?: NodeJS.ProcessEnv): ReturnType<typeof govern>;
  calls(): string[];
}

/** A state tree with recording runners pkg, service, file, exec, stuff. */
export function tree(files: Record<string, string>): Tree {
  const dir = tempDir();
  const states = path.join(dir, 'states');
  const log = path.join(dir, 'calls.log');
  const runners = runnersWith(path.join(dir, 'runners'), log, ['pkg', 'service', 'file', 'exec', 'stuff']);
  const facts = path.join(dir, 'facts');
  writeFile(path.join(facts, 'os/name'), 'Linux');
  for (const [name, content] of Object.entries(files)) writeFile(path.join(states, name), content);
  return {
    dir,
    states,
    runners,
    log,
    facts,
    run: (extra = [], env = {}) => govern(['run', states, '--runners-dir', runners, '--facts-dir', facts, ...extra], { env }),
    calls: () => callRefs(log),
  };
}

/** The JSON report of a run. */
export const json = (stdout: string) => JSON.parse(stdout) as RunReport;
