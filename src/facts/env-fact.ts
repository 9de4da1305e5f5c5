// One local fact as `govern facts NAME` run with the environment `env` would print it, answered in
// this process: the pkg runner asks for os/family this way instead of starting a govern of its own
// (bench/README.md, "Round seven"). The same facts path (GOVERN_FACTS_PATH, else the defaults), time
// limit (GOVERN_FACT_TIMEOUT) and scan, with its trust rules, as that command.
import fs from 'node:fs';
import path from 'node:path';
import { composeSearchPaths, GOVERN_ROOT } from '../config/paths.js';
import { parseDuration } from '../shared/duration.js';
import { collectLocal } from './collect.js';
import { DEFAULT_FACT_TIMEOUT_MS } from './evaluate.js';
import { formatFactLines } from './format.js';
import { LocalFacts } from './local-facts.js';

/** Whether `govern` is this very installation's bin/govern: only then may its `facts` be answered here. */
export function isThisGovern(govern: string): boolean {
  try {
    return fs.realpathSync(govern) === fs.realpathSync(path.join(GOVERN_ROOT, 'bin', 'govern'));
  } catch {
    return false;
  }
}

/** What `govern facts NAME` would print on stdout, and its exit code (1 on any warning, as it does). */
export async function factAsPrinted(name: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  const whole = env.GOVERN_FACTS_PATH ? env.GOVERN_FACTS_PATH.split(':').filter((d) => d !== '') : undefined;
  const none = { added: [] };
  const dirs = composeSearchPaths({ facts: { added: [], path: whole }, templates: none, runners: none }, undefined).facts;
  let timeoutMs = DEFAULT_FACT_TIMEOUT_MS;
  if (env.GOVERN_FACT_TIMEOUT) {
    try {
      timeoutMs = parseDuration(env.GOVERN_FACT_TIMEOUT);
    } catch {
      return { code: 1, stdout: '' };
    }
    if (timeoutMs <= 0) return { code: 1, stdout: '' };
  }
  const { values, failed } = await collectLocal(new LocalFacts({ dirs, timeoutMs, env }), [name]);
  return { code: failed ? 1 : 0, stdout: formatFactLines(values) };
}
