// The facts `govern check` renders with when no snapshot is given: every fact, of this host or of
// another (`hostfact`), stands for the same placeholder, so that every file renders and its other
// problems are found without the host. The placeholder is "0": it reads as a number, a version and
// a word alike; a branch or a level chosen by a fact's value is checked as that value would choose
// (docs/check.md). Which facts a file needs is told from its text (needed-facts.ts).
import type { FactResult } from '../facts/evaluate.js';

export const PLACEHOLDER = '0';

export class PlaceholderFacts {
  peek(_name: string): FactResult {
    return { ok: true, value: PLACEHOLDER };
  }

  async load(_names: Iterable<string>): Promise<void> {}
}

export class PlaceholderHostFacts {
  peek(_host: string, _name: string): FactResult {
    return { ok: true, value: PLACEHOLDER };
  }

  async load(_requests: Map<string, Set<string>>): Promise<void> {}
}
