// Finds the facts in a list of facts directories (highest priority first) without evaluating them.
// A fact's name is its path under a directory; the first directory that has a name wins. A file with
// no read bits is disabled, and hides the same name in lower-priority directories. A name that is a
// file in one directory and a directory in another is a conflict, reported, never resolved silently.
import fs from 'node:fs';
import path from 'node:path';

export interface FactSource {
  name: string;
  path: string;
  /** Executable facts run; others are read. Decided from the mode bits. */
  executable: boolean;
}

export interface FactScan {
  /** Enabled facts by name. */
  sources: Map<string, FactSource>;
  /** Names that cannot be resolved, with the reason. */
  conflicts: Map<string, string>;
  /** Directories that could not be read (other than missing ones), or were not read twice. */
  problems: string[];
  /** Names of directories not read because they were read already (links), with the reason. */
  notReadAgain: Map<string, string>;
}

interface DirEntryInfo {
  files: Map<string, { path: string; mode: number }>;
  dirs: Map<string, string>;
  notReadAgain: Map<string, string>;
}

/**
 * Every file and directory under root, by name. Asynchronous, so that a signal is handled during a
 * long scan; a directory reached a second time (by device and inode: a link loop, or a second link
 * to it) is reported and not read again, so links cannot make the scan endless.
 */
async function walk(root: string, problems: string[]): Promise<DirEntryInfo> {
  const info: DirEntryInfo = { files: new Map(), dirs: new Map(), notReadAgain: new Map() };
  const seen = new Map<string, string>();
  try {
    const st = await fs.promises.stat(root);
    seen.set(`${st.dev}:${st.ino}`, root);
  } catch {
    // reported by readdir below
  }
  const pending: { dir: string; prefix: string }[] = [{ dir: root, prefix: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { dir, prefix } = next;
    let entries: string[];
    try {
      entries = (await fs.promises.readdir(dir)).filter((e) => !e.startsWith('.')).sort(); // editor files, .gitkeep
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!(prefix === '' && code === 'ENOENT')) problems.push(`cannot read facts directory ${dir}: ${(e as Error).message}`);
      continue;
    }
    const stats = await Promise.all(entries.map((entry) => fs.promises.stat(path.join(dir, entry)).catch((e: Error) => e)));
    const subdirs: { dir: string; prefix: string }[] = [];
    entries.forEach((entry, i) => {
      const full = path.join(dir, entry);
      const name = prefix + entry;
      const st = stats[i];
      if (st instanceof Error) problems.push(`cannot stat fact ${full}: ${st.message}`);
      else if (st.isDirectory()) {
        const first = seen.get(`${st.dev}:${st.ino}`);
        if (first !== undefined) {
          const reason = `facts directory ${full} is ${first} again (a symbolic link loop, or a second link to it): not read twice`;
          problems.push(reason);
          info.notReadAgain.set(name, reason);
          return;
        }
        seen.set(`${st.dev}:${st.ino}`, full);
        info.dirs.set(name, full);
        subdirs.push({ dir: full, prefix: name + '/' });
      } else if (st.isFile()) {
        info.files.set(name, { path: full, mode: st.mode });
      }
    });
    pending.push(...subdirs.reverse()); // depth first, in name order
  }
  return info;
}

export async function scanFacts(dirs: string[]): Promise<FactScan> {
  const problems: string[] = [];
  const infos: (DirEntryInfo & { dir: string })[] = [];
  for (const dir of dirs) infos.push({ dir, ...(await walk(dir, problems)) });
  const sources = new Map<string, FactSource>();
  const conflicts = new Map<string, string>();
  const decided = new Set<string>();

  for (const info of infos) {
    for (const [name, file] of info.files) {
      const other = infos.find((i) => i.dirs.has(name));
      if (other) {
        conflicts.set(
          name,
          `${file.path} is a file but ${other.dirs.get(name)} is a directory: a fact name cannot be both (rename or remove one)`,
        );
        continue;
      }
      if (decided.has(name)) continue; // a higher-priority directory has it
      decided.add(name);
      if ((file.mode & 0o444) === 0) continue; // disabled: no read bits
      sources.set(name, { name, path: file.path, executable: (file.mode & 0o111) !== 0 });
    }
  }
  // Facts under a conflicting name are part of the conflict too.
  for (const name of [...sources.keys()]) {
    for (const conflict of conflicts.keys()) {
      if (name.startsWith(conflict + '/')) {
        conflicts.set(name, `fact ${conflict}: ${conflicts.get(conflict)}`);
        sources.delete(name);
      }
    }
  }
  const notReadAgain = new Map(infos.flatMap((info) => [...info.notReadAgain]).reverse()); // the first directory's reason wins
  return { sources, conflicts, problems, notReadAgain };
}
