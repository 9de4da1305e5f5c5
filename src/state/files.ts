// The state files of `govern run PATH`: PATH itself, or every *.hcl under it, in lexical path order.
// Symbolic links in a tree are followed only where they stay inside it, and each directory and file
// is read once (by device and inode), so a loop cannot make the walk endless; every entry that is
// refused is reported by its path, all at once (README, "State files"). The tree's own runners.d,
// facts.d and templates.d at its root are not state files, nor the other places of a tree
// (README, "Places in a tree"): hierarchy.hcl, recipients.hcl, rollout.hcl, modules.hcl, modules.lock, data/,
// modules/ and tests/.
import fs from 'node:fs';
import path from 'node:path';
import { TREE_DIRS } from '../config/paths.js';
import { DATA_DIR, HIERARCHY_FILE } from '../data/hierarchy.js';
import { ROLLOUT_FILE } from '../pull/rollout-file.js';
import { RECIPIENTS_FILE } from '../secrets/recipients.js';
import { MODULES_DIR } from './modules/declarations.js';
import { UserError, type Problem } from '../shared/errors.js';

export function listStateFiles(target: string): string[] {
  let st: fs.Stats;
  try {
    st = fs.statSync(target);
  } catch (e) {
    throw new UserError(`${target}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
  }
  if (!st.isDirectory()) return [target];
  const walk = new TreeWalk(target, st);
  walk.run();
  if (walk.problems.length > 0) throw new UserError(walk.problems);
  const found = walk.files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (found.length === 0) throw new UserError(`${target}: no *.hcl state files in this directory`);
  return found;
}

const identity = (st: fs.Stats) => `${st.dev}:${st.ino}`;
const isStateFile = (name: string) => name.endsWith('.hcl');
const SUPPORT_DIRS = new Set<string>(Object.values(TREE_DIRS));
/** The other entries of a tree's root that belong to the data, secrets and module layers, and its tests. */
const PLACES = new Set<string>([HIERARCHY_FILE, RECIPIENTS_FILE, ROLLOUT_FILE, 'modules.hcl', 'modules.lock', DATA_DIR, MODULES_DIR, 'tests']);
const SKIP_HINT = 'give the link a name starting with "." so that govern skips it';

class TreeWalk {
  readonly files: string[] = [];
  readonly problems: Problem[] = [];
  private readonly root: string;
  /** Directories and state files read, by identity: the path they were read under. */
  private readonly seen = new Map<string, string>();
  private readonly dirs: string[] = [];
  private readonly links: string[] = [];

  constructor(private readonly top: string, st: fs.Stats) {
    this.root = fs.realpathSync(top);
    this.seen.set(identity(st), top);
    this.dirs.push(top);
  }

  run(): void {
    this.readDirectories();
    // Links after every real entry, so a link never takes the place of the directory or file it names.
    for (let i = 0; i < this.links.length; i++) {
      this.follow(this.links[i]);
      this.readDirectories();
    }
  }

  private readDirectories(): void {
    for (let dir = this.dirs.pop(); dir !== undefined; dir = this.dirs.pop()) {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch (e) {
        this.refuse(dir, `cannot read this directory: ${(e as Error).message}`);
        continue;
      }
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (entry.name.startsWith('.')) continue; // editor files, .git
        if (dir === this.top && SUPPORT_DIRS.has(entry.name)) continue; // the tree's runners.d, facts.d, templates.d
        if (dir === this.top && PLACES.has(entry.name)) continue; // hierarchy.hcl, recipients.hcl, data/, modules/...
        const full = path.join(dir, entry.name);
        if (entry.isSymbolicLink()) this.links.push(full);
        else if (entry.isDirectory()) this.add(full, fs.lstatSync(full));
        else if (isStateFile(entry.name)) {
          if (entry.isFile()) this.add(full, fs.lstatSync(full));
          else this.refuse(full, 'not a regular file: govern reads only regular files');
        }
      }
    }
  }

  private follow(link: string): void {
    let real: string;
    let st: fs.Stats;
    try {
      real = fs.realpathSync(link);
      st = fs.statSync(real);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const to = readlinkOrNothing(link);
      if (code === 'ENOENT') this.refuse(link, `a dangling symbolic link (to ${to}): remove it, or ${SKIP_HINT}`);
      else if (code === 'ELOOP') this.refuse(link, `a loop of symbolic links (to ${to})`);
      else this.refuse(link, `cannot follow this symbolic link: ${(e as Error).message}`);
      return;
    }
    if (!st.isDirectory() && !isStateFile(path.basename(link))) return; // not something govern reads
    const inside = real === this.root || real.startsWith(this.root === '/' ? '/' : this.root + '/');
    if (!inside) this.refuse(link, `a symbolic link to ${real}, outside the state tree ${this.top}: move what it names into the tree, or ${SKIP_HINT}`);
    else if (!st.isDirectory() && !st.isFile()) this.refuse(link, `a symbolic link to ${real}, not a regular file: govern reads only regular files`);
    else this.add(link, st);
  }

  private add(full: string, st: fs.Stats): void {
    const first = this.seen.get(identity(st));
    if (first !== undefined) {
      const what = st.isDirectory() ? 'directory' : 'file';
      this.refuse(full, `the same ${what} as ${first}, already read: a ${what} is read once (a link to it would read it twice, or loop)`);
      return;
    }
    this.seen.set(identity(st), full);
    if (st.isDirectory()) this.dirs.push(full);
    else this.files.push(full);
  }

  private refuse(file: string, message: string): void {
    this.problems.push({ file, message });
  }
}

function readlinkOrNothing(link: string): string {
  try {
    return fs.readlinkSync(link);
  } catch {
    return '?';
  }
}
