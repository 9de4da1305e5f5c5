// What `govern check` says of a tree, as the editor's diagnostics: the tree checked (with placeholder
// facts, as `govern check` without --facts) when one of its files is opened or changed, with the
// editor's unsaved texts standing for the files on disk, and every file's problems published at
// their ranges; a file whose problems are gone gets an empty list. Changes that come while a check
// runs are taken by one more check when it ends, so a burst of keystrokes costs two checks at most.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkTree } from '../check/check-tree.js';
import type { CheckProblem } from '../check/locate.js';
import { memoryCache, type RunnerCache } from '../state/runner-cache.js';
import type { Tree } from './trees.js';

export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: 1;
  source: 'govern';
  code: string;
  message: string;
}

/** `version`: the version of the open document the diagnostics were found in, so that a client can tell stale ones. */
export type Publish = (uri: string, diagnostics: LspDiagnostic[], version: number | undefined) => void;

export class Diagnostics {
  private readonly running = new Map<Tree, Promise<void>>();
  private readonly dirty = new Set<Tree>();
  private readonly published = new Map<Tree, Set<string>>();
  /** Each tree's parsed files, kept between its checks (check-tree.ts, `parses`). */
  private readonly kept = new Map<Tree, RunnerCache>();

  constructor(
    private readonly publish: Publish,
    /** The open documents of a tree, which problems of no file are shown on. */
    private readonly openIn: (tree: Tree) => { uri: string; version: number }[],
    private readonly log: (message: string) => void,
  ) {}

  /** Checks the tree now, or once more when the check under way ends. */
  schedule(tree: Tree): Promise<void> {
    const current = this.running.get(tree);
    if (current) {
      this.dirty.add(tree);
      return current;
    }
    const run = this.check(tree).finally(() => {
      this.running.delete(tree);
      if (this.dirty.delete(tree)) void this.schedule(tree);
    });
    this.running.set(tree, run);
    return run;
  }

  /** When the tree's checks under way (and the one more they owe) have ended. */
  async settled(tree: Tree): Promise<void> {
    for (let run = this.running.get(tree); run; run = this.running.get(tree)) await run.catch(() => undefined);
  }

  private parses(tree: Tree): RunnerCache {
    let kept = this.kept.get(tree);
    if (!kept) this.kept.set(tree, (kept = memoryCache()));
    return kept;
  }

  private async check(tree: Tree): Promise<void> {
    const open = new Map(this.openIn(tree).map((d) => [d.uri, d.version]));
    let problems: CheckProblem[];
    try {
      const report = await checkTree({ ...tree.settings, target: tree.root }, undefined, { seen: (resources) => tree.planned(resources), needsFacts: false, parses: this.parses(tree) });
      problems = report.problems;
    } catch (e) {
      // A check that cannot run at all (the tree's directory gone, say): told on the open files.
      problems = [{ message: (e as Error).message, rule: 'state' }];
      this.log(`govern lsp: ${tree.root}: ${(e as Error).message}`);
    }
    const byUri = new Map<string, LspDiagnostic[]>();
    for (const p of problems) {
      const uris = p.file !== undefined ? [pathToFileURL(path.resolve(tree.root, p.file)).href] : [...open.keys()];
      for (const uri of uris) byUri.set(uri, [...(byUri.get(uri) ?? []), diagnostic(p)]);
    }
    const before = this.published.get(tree) ?? new Set<string>();
    // The open files always hear (an editor shows "no problem" as well), the files cleared too.
    for (const uri of new Set([...before, ...open.keys()])) if (!byUri.has(uri)) this.publish(uri, [], open.get(uri));
    for (const [uri, list] of byUri) this.publish(uri, list, open.get(uri));
    this.published.set(tree, new Set(byUri.keys()));
  }
}

/** A problem's range: check's 1-based line and columns (the end exclusive) as the protocol's 0-based ones. */
export function diagnostic(p: CheckProblem): LspDiagnostic {
  const line = Math.max(0, (p.line ?? 1) - 1);
  const start = { line, character: Math.max(0, (p.column ?? 1) - 1) };
  const end = p.endLine !== undefined && p.endColumn !== undefined ? { line: p.endLine - 1, character: p.endColumn - 1 } : { line, character: p.line !== undefined ? 1000 : 0 };
  const hosts = p.hosts && p.hosts.length > 0 ? ` (for ${p.hosts.join(', ')})` : '';
  return { range: { start, end }, severity: 1, source: 'govern', code: p.rule, message: p.message + hosts };
}
