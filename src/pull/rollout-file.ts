// rollout.hcl at a tree's root: the stages a new commit goes through in pull mode (docs/rollout-stages.md).
// `stages = [{ where = "canary=true" }, { where = "role=web", after = "30m" }, {}]`: each stage's
// hosts are those whose published facts match its `where` (the rule of `govern fleet --where`) and
// no earlier stage's. A tree's file, signed with it; every problem of it reported at once, at its line.
import fs from 'node:fs';
import path from 'node:path';
import { matchesAll, parseCondition, type Condition } from '../facts/inventory.js';
import { parseHcl, type ValueSpans } from '../hcl/parse.js';
import { parseDuration } from '../shared/duration.js';
import { UserError, type Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { readSourceFile } from '../shared/source-file.js';
import { didYouMean } from '../shared/suggest.js';
import { PULL_PERIOD_MS } from './pull-period.js';

export const ROLLOUT_FILE = 'rollout.hcl';
const MAX_STAGES = 20;
const MAX_CONDITIONS = 20;

export interface RolloutStage {
  /** Every condition must hold; none: every host. */
  where: Condition[];
  /** How long the hosts of the earlier stages must have held the commit healthy; 0 without `after`. */
  afterMs: number;
  /** Where the stage is written. */
  line: number;
}

export interface Rollout {
  file: string;
  /** The line of `stages`. */
  line: number;
  stages: RolloutStage[];
}

/**
 * How long a host of stage `stage` (stages.length: after the last) can expect its pulls to be held
 * by a rollout that goes well: each stage up to its own waits its `after`, and a pull period for its
 * hosts to take the commit and run it (docs/rollout-stages.md): between one stage's hosts holding a
 * commit healthy and the next stage's hosts taking it is up to one pull period.
 */
export function expectedHoldMs(rollout: Rollout, stage: number): number {
  const waited = rollout.stages.slice(1, stage + 1).reduce((sum, s) => sum + s.afterMs, 0);
  return waited + stage * PULL_PERIOD_MS;
}

/** The tree's rollout.hcl, or undefined when the tree has none. */
export function readRollout(tree: string): Rollout | undefined {
  const file = path.join(tree, ROLLOUT_FILE);
  if (!fs.existsSync(file)) return undefined;
  const text = readSourceFile(file, tree);
  const spans: ValueSpans = new Map();
  const items = parseHcl(file, text, spans).items;
  const lineOf = (key: string, fallback: number) => {
    const span = spans.get(key);
    return span === undefined ? fallback : text.slice(0, span.start).split('\n').length;
  };
  const problems: Problem[] = [];
  let stages: RolloutStage[] | undefined;
  let stagesLine = 1;
  for (const item of items) {
    const line = item.at.line;
    if (item.kind === 'block' || item.name !== 'stages') {
      const name = item.kind === 'block' ? item.type : item.name;
      problems.push({ file, line, message: `unknown ${item.kind} "${name}"${didYouMean(name, ['stages'])}: ${ROLLOUT_FILE} holds stages = [{ where = "FACT=VALUE" }, ..., {}]` });
    } else if (!Array.isArray(item.value) || item.value.length === 0) {
      problems.push({ file, line, message: 'stages must be a list of at least one stage, such as [{ where = "canary=true" }, {}]' });
    } else if (item.value.length > MAX_STAGES) {
      problems.push({ file, line, message: `stages: ${item.value.length} stages, more than ${MAX_STAGES}` });
    } else {
      stagesLine = line;
      stages = item.value.map((v, i) => readStage(file, v, i, (key) => lineOf(`stages/${i}${key}`, line), problems));
    }
  }
  if (problems.length === 0 && stages === undefined) problems.push({ file, line: 1, message: `no stages: ${ROLLOUT_FILE} holds stages = [{ where = "FACT=VALUE" }, ..., {}]` });
  if (problems.length > 0) throw new UserError(problems);
  return { file, line: stagesLine, stages: stages! };
}

function readStage(file: string, v: AttrValue, i: number, lineOf: (key: string) => number, problems: Problem[]): RolloutStage {
  const stage: RolloutStage = { where: [], afterMs: 0, line: lineOf('') };
  const at = (key: string, message: string) => problems.push({ file, line: lineOf(key), message: `stage ${i + 1}: ${message}` });
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    at('', 'must be an object: { where = "FACT=VALUE", after = "30m" }, or {} for every host');
    return stage;
  }
  for (const [key, value] of Object.entries(v)) {
    if (key === 'where') {
      const texts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((x) => typeof x === 'string') ? (value as string[]) : undefined;
      if (texts === undefined || texts.length > MAX_CONDITIONS) at('/where', `where must be "FACT=VALUE" or a list of at most ${MAX_CONDITIONS} of them`);
      else
        for (const text of texts) {
          try {
            stage.where.push(parseCondition(text));
          } catch (e) {
            at('/where', `where: ${(e as Error).message}`);
          }
        }
    } else if (key === 'after') {
      if (i === 0) at('/after', 'after: the first stage waits for no other (its hosts are the canaries)');
      else if (typeof value !== 'string') at('/after', 'after must be a duration such as "30m"');
      else
        try {
          stage.afterMs = parseDuration(value);
        } catch (e) {
          at('/after', `after: ${(e as Error).message}`);
        }
    } else at(`/${key}`, `unknown setting "${key}"${didYouMean(key, ['where', 'after'])}: a stage has where and after`);
  }
  return stage;
}

/** The index of the stage a host's published facts put it in: the first that matches; undefined when none does. */
export function stageOf(rollout: Rollout, facts: Record<string, string> | undefined): number | undefined {
  const i = rollout.stages.findIndex((s) => matchesAll(facts, s.where));
  return i < 0 ? undefined : i;
}

/** A stage as the user wrote it, for messages: `stage 2 (role=web)`. */
export function stageName(rollout: Rollout, i: number): string {
  const where = rollout.stages[i].where.map((c) => `${c.fact}=${c.value}`).join(' ');
  return `stage ${i + 1} (${where === '' ? 'every host' : where})`;
}
