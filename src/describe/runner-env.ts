// The environment every runner process starts with, whether govern asks it to describe itself or
// to apply resources: the caller's, without the variables that belong to one call, and with the
// runner kit reachable as `require('govern/runner')` (docs/runners.md).
import path from 'node:path';
import { GOVERN_ROOT } from '../config/paths.js';
import { CALL_ENV } from '../shared/protocol.js';

/** A directory holding `govern`, a module that is the runner kit (modules/govern/runner.js). */
export const KIT_NODE_PATH = path.join(GOVERN_ROOT, 'modules');

export function runnerBaseEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const key of CALL_ENV) delete env[key];
  // After the caller's own NODE_PATH, so that a runner's own choice of modules wins.
  env.NODE_PATH = env.NODE_PATH ? `${env.NODE_PATH}${path.delimiter}${KIT_NODE_PATH}` : KIT_NODE_PATH;
  return env;
}
