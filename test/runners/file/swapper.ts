// A separate process that waits for the runner's temporary file to appear beside the target and
// then atomically replaces the target with a symlink: the "path replaced mid-run" attack.
// Usage: node swapper.js DIR NAME LINK_TARGET; prints "swapped" once done.
import fs from 'node:fs';
import path from 'node:path';

function swapWhenWriting(dir: string, name: string, linkTarget: string): boolean {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (fs.readdirSync(dir).some((entry) => entry.startsWith(`.${name}.govern-`))) {
      const link = path.join(dir, '.swap-link');
      fs.symlinkSync(linkTarget, link);
      fs.renameSync(link, path.join(dir, name));
      return true;
    }
  }
  return false;
}

if (require.main === module) {
  const [dir, name, linkTarget] = process.argv.slice(2);
  process.stdout.write(swapWhenWriting(dir, name, linkTarget) ? 'swapped\n' : 'timed out\n');
}
