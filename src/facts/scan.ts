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
  /** Directories that could not be read (other than missing ones). */
  problems: string[];
}

interface DirEntryInfo {
  files: Map<string, { path: string; mode: number }>;
  dirs: Map<string, string>;
}

function walk(root: string, problems: string[]): DirEntryInfo {
  const info: DirEntryInfo = { files: new Map(), dirs: new Map() };
  const visit = (dir: string, prefix: string) => {
    let entries: string[];
    try {
      entries = fs.readdirSync(dir).sort();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!(prefix === '' && code === 'ENOENT')) problems.push(`cannot read facts directory ${dir}: ${(e as Error).message}`);
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith('.')) continue; // editor files, .gitkeep
      const full = path.join(dir, entry);
      const name = prefix + entry;
      let st: fs.Stats;
      try {
        st = fs.statSync(full);
      } catch (e) {
        problems.push(`cannot stat fact ${full}: ${(e as Error).message}`);
        continue;
      }
      if (st.isDirectory()) {
        info.dirs.set(name, full);
        visit(full, name + '/');
      } else if (st.isFile()) {
        info.files.set(name, { path: full, mode: st.mode });
      }
    }
  };
  visit(root, '');
  return info;
}

export function scanFacts(dirs: string[]): FactScan {
  const problems: string[] = [];
  const infos = dirs.map((dir) => ({ dir, ...walk(dir, problems) }));
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
  return { sources, conflicts, problems };
}
