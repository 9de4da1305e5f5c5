// The state trees an editor's files belong to, each with what the server knows of it: its planning
// settings, its runners and facts (catalog.ts), and what its last check planned (its resources, for
// going from an RREF to a block and for symbols). A file's tree is the nearest directory above it
// that holds a tree's places (hierarchy.hcl, modules/, runners.d/, templates.d/, facts.d/), within
// the editor's workspace folder; else the file's own directory, or the tree above the modules/ or
// data/ directory the file is in.
import fs from 'node:fs';
import path from 'node:path';
import { TREE_DIRS } from '../config/paths.js';
import { DATA_DIR, HIERARCHY_FILE } from '../data/hierarchy.js';
import type { PlanSettings } from '../plan/settings.js';
import { isInside } from '../shared/source-file.js';
import { MODULES_DIR } from '../state/modules/declarations.js';
import type { Resource } from '../state/resource.js';
import { Catalog } from './catalog.js';
import { dataKeys, type DataKeyPlace } from './data-index.js';

/** What a tree's settings are made from: govern lsp's own options (cli/commands/lsp.ts). */
export type SettingsFor = (root: string) => PlanSettings;

export class Tree {
  readonly settings: PlanSettings;
  readonly catalog: Catalog;
  /** The resources the last check read, by RREF. */
  resources = new Map<string, Resource>();
  private keys?: Map<string, DataKeyPlace[]>;

  constructor(
    readonly root: string,
    settingsFor: SettingsFor,
  ) {
    this.settings = settingsFor(root);
    this.catalog = new Catalog(this.settings);
  }

  /** Every data key of the tree's data files; read again after each check (a data file may have changed). */
  dataKeys(): Map<string, DataKeyPlace[]> {
    this.keys ??= dataKeys(this.root);
    return this.keys;
  }

  planned(resources: Resource[]): void {
    this.resources = new Map(resources.map((r) => [r.ref, r]));
    this.keys = undefined;
  }
}

const MARKERS = [HIERARCHY_FILE, MODULES_DIR, ...Object.values(TREE_DIRS)];

export class Trees {
  private readonly trees = new Map<string, Tree>();

  constructor(
    private readonly settingsFor: SettingsFor,
    private folders: string[] = [],
  ) {}

  setFolders(folders: string[]): void {
    this.folders = folders.map((f) => path.resolve(f));
  }

  /** The tree of an absolute file path. */
  of(file: string): Tree {
    const root = this.rootOf(file);
    let tree = this.trees.get(root);
    if (!tree) {
      tree = new Tree(root, this.settingsFor);
      this.trees.set(root, tree);
    }
    return tree;
  }

  all(): Tree[] {
    return [...this.trees.values()];
  }

  private rootOf(file: string): string {
    const own = path.dirname(path.resolve(file));
    const folder = this.folders.filter((f) => isInside(own, f)).sort((a, b) => b.length - a.length)[0] ?? '/';
    for (let dir = own; isInside(dir, folder); dir = path.dirname(dir)) {
      // A module's directory has its own templates.d/ and runners.d/, but belongs to the tree above.
      const aModule = path.basename(path.dirname(dir)) === MODULES_DIR;
      if (!aModule && MARKERS.some((m) => fs.existsSync(path.join(dir, m)))) return dir;
      if (dir === folder || path.dirname(dir) === dir) break;
    }
    const parts = own.split(path.sep);
    const place = parts.findIndex((p, i) => (p === MODULES_DIR && i < parts.length - 1) || p === DATA_DIR);
    return place > 0 ? parts.slice(0, place).join(path.sep) || '/' : own;
  }
}
