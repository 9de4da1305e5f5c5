// Asks a runner to describe itself: the one place govern executes a runner before applying
// anything, so whatever govern must check before it runs a program goes here. The runner gets no
// arguments, GOVERN_DESCRIBE=1 and GOVERN_NOOP=1 (so that a runner that does not know the question
// changes nothing), and stdin closed; a description is one JSON document on stdout and exit 0.
import { runnerBaseEnv } from './runner-env.js';
import { DESCRIBE_ENV, type RunnerDescription } from '../shared/description.js';
import { describeFailure, runCommand } from '../shared/process.js';
import { checkDescription } from './check-description.js';

/** A runner as planning knows it: where it is and, when it has one, its description. */
export interface KnownRunner {
  executable: string;
  /** Undefined: the runner does not describe itself, and its resources are passed to it unchecked. */
  description?: RunnerDescription;
}

/**
 * A runner that takes longer to answer is taken as one that does not describe itself (the answer
 * is kept like any other): a runner of the kit answers in well under a second.
 */
export const DESCRIBE_TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;

export type DescribeAnswer =
  | { kind: 'described'; description: RunnerDescription }
  /** It does not describe itself: its resources are passed to it unchecked. */
  | { kind: 'undescribed' }
  /** It printed a description that is not valid: an error in the runner, reported before anything runs. */
  | { kind: 'invalid'; problem: string };

export async function describeRunner(executable: string, base: NodeJS.ProcessEnv): Promise<DescribeAnswer> {
  const env = { ...runnerBaseEnv(base), [DESCRIBE_ENV]: '1', GOVERN_NOOP: '1' };
  const result = await runCommand(executable, [], { env, timeoutMs: DESCRIBE_TIMEOUT_MS, maxOutputBytes: MAX_BYTES });
  const document = jsonObject(result.stdout);
  if (!document || !('govern_runner' in document)) return { kind: 'undescribed' };
  if (result.code !== 0) return { kind: 'invalid', problem: `it printed a description but failed (${describeFailure(result, DESCRIBE_TIMEOUT_MS)})` };
  const problems = checkDescription(document);
  if (problems.length > 0) return { kind: 'invalid', problem: `its description is not valid: ${problems.join('; ')}` };
  return { kind: 'described', description: document as RunnerDescription };
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
