// The hash modules.lock keeps of a vendored module: every directory and file under it, by path,
// executable bit and contents (what git itself keeps of a tree), so an edit by hand, a file added
// or removed, or a mode change shows. A vendored module holds no links (the fetch refuses a
// module with one), so a link found here is a change too, and is never followed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';

/** Bounds of one module: a repository can hold anything, and a fetch copies and hashes all of it. */
export const MODULE_LIMITS = { files: 10_000, bytes: 64 * 1024 * 1024 };

export interface TreeHash {
  hash: string;
  /** Entries that are neither a directory nor a regular file (links, devices), by relative path. */
  odd: string[];
}

export function hashTree(dir: string): TreeHash {
  const lines: string[] = [];
  const odd: string[] = [];
  let files = 0;
  let bytes = 0;
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      const full = path.join(dir, relPath);
      const st = fs.lstatSync(full);
      if (++files > MODULE_LIMITS.files) throw new UserError(`${dir}: more than ${MODULE_LIMITS.files} files: a module is bounded (docs/modules.md)`);
      if (st.isDirectory()) {
        lines.push(`d ${JSON.stringify(relPath)}`);
        walk(relPath);
      } else if (st.isFile()) {
        bytes += st.size;
        if (bytes > MODULE_LIMITS.bytes) throw new UserError(`${dir}: more than ${MODULE_LIMITS.bytes / 1024 / 1024} MiB: a module is bounded (docs/modules.md)`);
        const sum = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
        lines.push(`f ${st.mode & 0o111 ? 'x' : '-'} ${JSON.stringify(relPath)} ${sum}`);
      } else {
        odd.push(relPath);
        lines.push(`? ${JSON.stringify(relPath)}`);
      }
    }
  };
  walk('');
  return { hash: `sha256:${crypto.createHash('sha256').update(lines.join('\n')).digest('hex')}`, odd };
}
