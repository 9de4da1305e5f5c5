// `govern modules outdated`: for each module taken from git at a version tag, the repository's
// newer version tags (by version order, as `sort -V` orders v1.9 before v1.10). A branch or a
// commit id is no version and is said to be so.
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import { closeSession, gitSession, remoteTags } from './git-source.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';

const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/;

function version(tag: string): number[] | undefined {
  const m = VERSION.exec(tag);
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

function newer(a: number[], b: number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

export interface Outdated {
  lines: string[];
  /** Modules with a newer version. */
  count: number;
}

export async function outdatedModules(root: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Outdated> {
  const decls = readManifest(path.join(root, MANIFEST_FILE), root);
  if (decls.length === 0) throw new UserError(`${path.join(root, MANIFEST_FILE)}: no module_source blocks`);
  const session = gitSession(root, env, timeoutMs);
  const lines: string[] = [];
  let count = 0;
  try {
    for (const d of decls) {
      if (d.git === undefined) {
        lines.push(`${d.name}: ${d.path} (a directory: no versions)`);
        continue;
      }
      const current = version(d.ref as string);
      if (current === undefined) {
        lines.push(`${d.name}: ${d.ref} is no version tag (vX.Y.Z): not compared`);
        continue;
      }
      const found = (await remoteTags(session, d))
        .map((tag) => ({ tag, v: version(tag) }))
        .filter((t): t is { tag: string; v: number[] } => t.v !== undefined && newer(t.v, current))
        .sort((a, b) => (newer(a.v, b.v) ? 1 : newer(b.v, a.v) ? -1 : 0));
      if (found.length > 0) count++;
      lines.push(found.length > 0 ? `${d.name}: ${d.ref} -> ${found[found.length - 1].tag} (newer: ${found.map((t) => t.tag).join(', ')})` : `${d.name}: ${d.ref} is the newest version`);
    }
  } finally {
    closeSession(session);
  }
  return { lines, count };
}
