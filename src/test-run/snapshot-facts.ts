// A host's facts snapshot as a facts directory (docs/test.md): one plain file per fact, its value as
// the file's content, searched before every other facts directory by the runs in the sandbox. A fact
// the snapshot lacks is the sandbox's own.
import fs from 'node:fs';
import path from 'node:path';
import type { Snapshot } from '../facts/snapshot.js';
import { UserError } from '../shared/errors.js';

export function writeSnapshotFacts(snapshot: Snapshot, dir: string): void {
  const problems: string[] = [];
  const names = [...snapshot.values.keys()].sort();
  for (const name of names) {
    const parts = name.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0'))) problems.push(`${snapshot.source}: fact ${JSON.stringify(name)}: not a fact name (slash-separated words)`);
    else if (names.some((other) => other.startsWith(name + '/'))) problems.push(`${snapshot.source}: fact ${name} is both a value and a directory of facts (${names.find((o) => o.startsWith(name + '/'))})`);
  }
  if (problems.length > 0) throw new UserError(problems.map((message) => ({ message })));
  fs.mkdirSync(dir, { mode: 0o755 });
  for (const name of names) {
    const file = path.join(dir, ...name.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, snapshot.values.get(name)!, { mode: 0o644, flag: 'wx' });
  }
}
