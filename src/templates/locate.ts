// Finds a template: a path (`./x`, `../x`, `/x`), or a name in the templates directories (first one
// wins; NAME, then NAME.hbs). A file resource's `template` and a partial are found so, and
// `govern render` too, after a path relative to the working directory.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import type { PartialLookup } from './engine.js';
import { isInside, readSourceFile } from '../shared/source-file.js';

/** The extension a template or partial may be named without (`nginx/headers` finds `nginx/headers.hbs`). */
export const TEMPLATE_EXTENSION = '.hbs';

/** `./x`, `../x` and `/x` are paths; anything else is a name in the templates directories. */
export function isTemplatePath(name: string): boolean {
  return name.startsWith('/') || name.startsWith('./') || name.startsWith('../');
}

/** The template's file (a relative path resolved against `base`), or why there is none. */
export function findTemplate(name: string, dirs: readonly string[], base: string): { file: string } | { missing: string } {
  if (isTemplatePath(name)) {
    const file = path.resolve(base, name);
    return fs.existsSync(file) ? { file } : { missing: `no such file ${file}` };
  }
  if (path.normalize(name).split('/').includes('..')) return { missing: 'a template name cannot leave its directory (..)' };
  for (const dir of dirs) {
    for (const candidate of [name, name + TEMPLATE_EXTENSION]) {
      const file = path.join(dir, candidate);
      if (fs.existsSync(file)) return { file };
    }
  }
  return { missing: `not found in ${dirs.join(', ') || '(no templates directories)'}` };
}

/** `govern render NAME`: a file of that path from the working directory, else as findTemplate finds it. */
export function locateTemplate(nameOrPath: string, dirs: string[]): string {
  if (fs.existsSync(nameOrPath)) return nameOrPath;
  const found = findTemplate(nameOrPath, dirs, process.cwd());
  if ('missing' in found) throw new UserError(`template ${nameOrPath}: ${found.missing}`);
  return found.file;
}

/**
 * The tree a template's file belongs to, whose directory it must then be read inside: a template
 * given by path, or one found under the tree's directory (its templates.d, a module's); undefined
 * for the host's own templates directories.
 */
export function treeOfTemplate(name: string, file: string, root: string | undefined): string | undefined {
  if (root === undefined) return undefined;
  return isTemplatePath(name) || isInside(path.resolve(file), path.resolve(root)) ? root : undefined;
}

/** Partials are found by name in the templates directories, read as any template is (a tree's inside the tree). */
export function partialLookup(dirs: readonly string[], root?: string): PartialLookup {
  return (name) => {
    if (isTemplatePath(name)) return { missing: 'a partial is named as in the templates directories, not by path' };
    const found = findTemplate(name, dirs, '/');
    if ('missing' in found) return found;
    try {
      return { file: found.file, source: readSourceFile(found.file, treeOfTemplate(name, found.file, root)) };
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      return { missing: e.message };
    }
  };
}
