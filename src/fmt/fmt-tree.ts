// `govern fmt`: each file laid out (format.ts), and written back when it changed, atomically and
// with its mode and owner; or, with check, only told. A file fmt cannot lay out is named and left.
import fs from 'node:fs';
import { writeFileAtomic } from '../shared/atomic-file.js';
import { UserError, type Problem } from '../shared/errors.js';
import { readSourceFile } from '../shared/source-file.js';
import { unifiedDiff } from '../shared/text-diff.js';
import { fmtFiles } from './files.js';
import { formatText } from './format.js';

export interface FmtSettings {
  paths: string[];
  /** Write nothing: tell which files would change. */
  check: boolean;
  /** Show each change as a unified diff. */
  diff: boolean;
}

export interface FmtResult {
  /** The files that changed (or would, with check), in the order walked. */
  changed: string[];
  /** What stdout shows: each changed file's name, or its diff. */
  text: string;
  /** The files left as they are, and why. */
  problems: Problem[];
  /** 0: nothing to report; 1: a file would change (check) or could not be formatted. */
  exitCode: number;
}

export function fmtTree(settings: FmtSettings): FmtResult {
  const changed: string[] = [];
  const problems: Problem[] = [];
  const out: string[] = [];
  for (const { file, templated } of fmtFiles(settings.paths)) {
    let text: string;
    try {
      text = readSourceFile(file);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(...e.problems.map((p) => ({ ...p, file, message: `left as it is: ${p.message}` })));
      continue;
    }
    const result = formatText(file, text, templated);
    if (!result.ok) {
      problems.push({ file, line: result.line, message: `left as it is: ${result.reason}` });
      continue;
    }
    if (result.text === text) continue;
    changed.push(file);
    if (settings.diff) out.push(...(unifiedDiff(text, result.text, `${file}`, `${file} (formatted)`) ?? [`${file}: changed (too large a change to show)`]));
    else out.push(file);
    if (!settings.check) write(file, result.text);
  }
  const exitCode = problems.length > 0 || (settings.check && changed.length > 0) ? 1 : 0;
  return { changed, text: out.length > 0 ? out.join('\n') + '\n' : '', problems, exitCode };
}

/** The new text in place of the old, keeping the file's mode and, as root, its owner. */
function write(file: string, text: string): void {
  const st = fs.statSync(file);
  writeFileAtomic(file, text, st.mode & 0o7777);
  if (process.getuid?.() === 0) fs.chownSync(file, st.uid, st.gid);
}
