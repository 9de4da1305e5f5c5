// Finds a template: a path as given, or a name in the templates directories (first one wins).
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';

export function locateTemplate(nameOrPath: string, dirs: string[]): string {
  if (nameOrPath.includes('/') || fs.existsSync(nameOrPath)) {
    if (!fs.existsSync(nameOrPath)) throw new UserError(`template ${nameOrPath}: no such file`);
    return nameOrPath;
  }
  for (const dir of dirs) {
    const candidate = path.join(dir, nameOrPath);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new UserError(`template ${nameOrPath}: not found in ${dirs.join(', ') || '(no templates directories)'}`);
}
