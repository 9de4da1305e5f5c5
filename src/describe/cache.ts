// A runner's answer to GOVERN_DESCRIBE is kept between runs, so a run that changes nothing starts no
// runner just to ask. It is keyed by the runner file's identity (path, size, modification time,
// inode) and holds only while every file the description names as its sources is unchanged too. The
// answers are entries of their own (`runner-...`) in the runner cache's directory, under its rules
// (state/runner-cache.ts): a private directory, entries only the user running govern can have written.
import fs from 'node:fs';
import type { RunnerCache } from '../state/runner-cache.js';
import type { DescribeAnswer } from './describe-runner.js';

const FORMAT = 'govern-runner-description-1';

/** path, size, mtime and inode of a file, or undefined when it cannot be read. */
function identity(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return `${file}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
  } catch {
    return undefined;
  }
}

interface Entry {
  answer: DescribeAnswer;
  /** The identity of each source file when the answer was given. */
  sources: string[];
}

export class DescriptionCache {
  constructor(private readonly store: RunnerCache) {}

  /** The answer kept for this runner file while it and its sources are unchanged; the runner is not asked. */
  kept(executable: string): DescribeAnswer | undefined {
    const before = identity(executable);
    if (before === undefined) return undefined;
    const kept = this.store.get(`${FORMAT}\0${before}`) as Entry | undefined;
    return kept && kept.answer.kind !== 'invalid' && Array.isArray(kept.sources) && sourcesOf(kept.answer).every((file, i) => identity(file) === kept.sources[i]) ? kept.answer : undefined;
  }

  /** The answer kept for this runner file, or the runner's own (`ask`), then kept. */
  async answer(executable: string, ask: (executable: string) => Promise<DescribeAnswer>): Promise<DescribeAnswer> {
    const before = identity(executable);
    if (before === undefined) return ask(executable);
    const kept = this.kept(executable);
    if (kept) return kept;

    const answer = await ask(executable);
    const sources = sourcesOf(answer).map(identity);
    // A runner that changed while it was asked, or a source that is gone, is asked again next time;
    // so is one whose description is invalid: it names no sources, and its fix may be in one of them.
    const stable = answer.kind !== 'invalid' && identity(executable) === before && sources.every((s) => s !== undefined);
    if (stable) this.store.put(`${FORMAT}\0${before}`, { answer, sources } as unknown as Record<string, unknown>);
    return answer;
  }
}

function sourcesOf(answer: DescribeAnswer): readonly string[] {
  return answer.kind === 'described' ? (answer.description.sources ?? []) : [];
}
