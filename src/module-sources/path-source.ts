// One module from a directory on this host (`path = "../shared/nginx"`): copied into the staging
// directory as it is, files and directories only. A link is refused rather than followed (its
// target could be swapped while root copies), and so is a directory another user owns.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import type { ModuleSourceDecl } from './manifest.js';
import { MODULE_LIMITS } from './tree-hash.js';

export function stagePath(d: ModuleSourceDecl, stage: string): void {
  const from = d.path as string;
  const at = { file: d.file, line: d.line };
  const top = fs.lstatSync(from, { throwIfNoEntry: false });
  if (!top?.isDirectory()) throw new UserError({ ...at, message: `module_source "${d.name}": ${from} is not a directory` });
  const uid = process.getuid?.() ?? 0;
  let files = 0;
  let bytes = 0;
  const copy = (src: string, dst: string) => {
    const st = fs.lstatSync(src);
    if (st.uid !== uid && st.uid !== 0) throw new UserError({ ...at, message: `module_source "${d.name}": ${src} belongs to another user (uid ${st.uid}): copy it somewhere only you can write first` });
    if (++files > MODULE_LIMITS.files) throw new UserError({ ...at, message: `module_source "${d.name}": ${from} holds more than ${MODULE_LIMITS.files} files` });
    if (st.isDirectory()) {
      fs.mkdirSync(dst, { mode: 0o755 });
      for (const name of fs.readdirSync(src).sort()) copy(path.join(src, name), path.join(dst, name));
    } else if (st.isFile()) {
      bytes += st.size;
      if (bytes > MODULE_LIMITS.bytes) throw new UserError({ ...at, message: `module_source "${d.name}": ${from} holds more than ${MODULE_LIMITS.bytes / 1024 / 1024} MiB` });
      fs.copyFileSync(src, dst, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(dst, st.mode & 0o111 ? 0o755 : 0o644);
    } else {
      throw new UserError({ ...at, message: `module_source "${d.name}": ${src} is ${st.isSymbolicLink() ? 'a link' : 'not a file or directory'}: a vendored module holds only files and directories` });
    }
  };
  copy(from, stage);
}
