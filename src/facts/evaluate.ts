// Turns one fact source into its value: a plain file's contents or an executable's stdout, trimmed.
import fs from 'node:fs';
import { describeFailure, lastLines, runCommand } from '../shared/process.js';
import { trustedProgram } from '../shared/trust.js';
import type { FactSource } from './scan.js';

/** The largest fact value govern accepts, from a file or an executable (documented in the README). */
export const MAX_FACT_BYTES = 1024 * 1024;
export const DEFAULT_FACT_TIMEOUT_MS = 10_000;

export type FactResult = { ok: true; value: string } | { ok: false; error: string };

export interface EvaluateOptions {
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

export async function evaluateFact(source: FactSource, options: EvaluateOptions): Promise<FactResult> {
  if (!source.executable) return readFactFile(source.path);
  const trusted = trustedProgram(source.path); // run as root: only what root (or we) alone can change
  if ('refused' in trusted) return { ok: false, error: trusted.refused };
  const result = await runCommand(trusted.path, [], {
    env: options.env,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: MAX_FACT_BYTES,
  });
  if (result.overflowed) return { ok: false, error: `output is over the ${MAX_FACT_BYTES / 1024 / 1024} MiB limit` };
  if (result.code !== 0) {
    const stderr = lastLines(result.stderr, 1);
    return { ok: false, error: describeFailure(result, options.timeoutMs) + (stderr ? `: ${stderr}` : '') };
  }
  return { ok: true, value: result.stdout.trim() };
}

async function readFactFile(file: string): Promise<FactResult> {
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_FACT_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_FACT_BYTES) return { ok: false, error: `file is over the ${MAX_FACT_BYTES / 1024 / 1024} MiB limit` };
      return { ok: true, value: buffer.subarray(0, bytesRead).toString('utf8').trim() };
    } finally {
      await handle.close();
    }
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}
