// Runners stand side by side (docs/adding-a-runner.md): a runner's folder imports only its own files,
// the runner kit (src/runners/kit/), the runner library (src/runners/lib/) and src/shared/; the kit and
// the library import only each other and src/shared/. The one exception is the host process
// (src/runners/host/), which loads every runner of the registry by its runner.js, and the pkg runner,
// which answers os/family with govern facts' own code (src/facts/env-fact.ts; bench/README.md, "Round seven").
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import { ROOT } from '../support/cli.js';

const RUNNERS = path.join(ROOT, 'src', 'runners');
const IMPORT = /(?:from |require\(|import\()\s*'(\.\.?\/[^']*)'/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Every relative import of a file under src/runners/FOLDER that leaves what FOLDER may import: "file:line -> target". */
export function strayImports(runnersDir: string): string[] {
  const src = path.dirname(runnersDir);
  const found: string[] = [];
  for (const folder of fs.readdirSync(runnersDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    const allowed = [path.join(runnersDir, 'kit'), path.join(runnersDir, 'lib'), path.join(src, 'shared'), path.join(runnersDir, folder)];
    if (folder === 'host') allowed.push(...BUILT_IN_RUNNERS.map((r) => path.join(runnersDir, r, 'runner.js')), path.join(runnersDir, 'registry.js'));
    if (folder === 'pkg') allowed.push(path.join(src, 'facts', 'env-fact.js'));
    for (const file of sources(path.join(runnersDir, folder))) {
      fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        for (const m of line.matchAll(IMPORT)) {
          const target = path.resolve(path.dirname(file), m[1]);
          if (!allowed.some((a) => target === a || target.startsWith(`${a}/`))) found.push(`${path.relative(src, file)}:${i + 1} -> ${path.relative(src, target)}`);
        }
      });
    }
  }
  return found;
}

describe('runners side by side #once', () => {
  it('no runner imports another runner; the kit and the library import no runner', () => {
    expect(strayImports(RUNNERS)).to.deep.equal([]);
  });

  it('finds an import of another runner planted in a runner', () => {
    const planted = path.join(RUNNERS, 'cron', `planted-import-${process.pid}.ts`);
    fs.writeFileSync(planted, "import { description } from '../file/description.js';\n");
    try {
      expect(strayImports(RUNNERS)).to.deep.equal([`runners/cron/planted-import-${process.pid}.ts:1 -> runners/file/description.js`]);
    } finally {
      fs.rmSync(planted);
    }
  });
});
