// The bundles of `make build` (scripts/bundle.js): bin/govern and each shipped runner load one file,
// built from the dist/src the rest of the suite tests, whose stack traces map back to dist/src.
import { expect } from 'chai';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN, ROOT, RUNNERS_DIR } from '../support/cli.js';
import { modulesLoaded } from '../support/modules-loaded.js';

const BUNDLES = path.join(ROOT, 'dist', 'bundle');

describe('the bundles bin/govern and the runners load #once', () => {
  it('bin/govern loads its bundle and no module of dist/src', () => {
    const loaded = modulesLoaded(GOVERN, ['--version']);
    expect(loaded).to.include(path.join(BUNDLES, 'govern.js'));
    expect(loaded.filter((m) => m.includes(`${path.sep}dist${path.sep}src${path.sep}`))).to.deep.equal([]);
  });

  it('each shipped runner is one bundle, and describes itself by it', () => {
    const runners = fs.readdirSync(RUNNERS_DIR);
    expect(runners).to.include.members(BUILT_IN_RUNNERS);
    for (const name of runners) {
      const r = spawnSync(path.join(RUNNERS_DIR, name), [], { encoding: 'utf8', env: { ...process.env, GOVERN_DESCRIBE: '1' } });
      expect(r.status, `${name}: ${r.stderr}`).to.equal(0);
      // Its own bundle, and at most the vendor files of the libraries it uses (scripts/bundle.js).
      const [own, ...libraries] = (JSON.parse(r.stdout) as { sources: string[] }).sources;
      expect(own, name).to.equal(path.join(BUNDLES, `runner-${name}.js`));
      for (const library of libraries) expect(path.relative(BUNDLES, library), name).to.match(/^vendor-[a-z-]+\.js$/);
    }
  });

  it('is no older than any dist/src module it holds (make build writes both)', () => {
    // The vendor files hold libraries alone, no module of dist/src.
    for (const map of fs.readdirSync(BUNDLES).filter((f) => f.endsWith('.js.map') && !f.startsWith('vendor-'))) {
      const bundled = fs.statSync(path.join(BUNDLES, map.replace(/\.map$/, ''))).mtimeMs;
      const sources = (JSON.parse(fs.readFileSync(path.join(BUNDLES, map), 'utf8')) as { sources: string[] }).sources;
      const own = sources.map((s) => path.resolve(BUNDLES, s)).filter((s) => s.startsWith(path.join(ROOT, 'dist', 'src') + path.sep));
      expect(own, map).to.not.be.empty;
      for (const source of own) expect(fs.statSync(source).mtimeMs, `${source} is newer than ${map}: run make build`).to.be.at.most(bundled);
    }
  });

  it("bundles Handlebars without the source-map package, so its compiler builds code from strings", () => {
    const sources = (JSON.parse(fs.readFileSync(path.join(BUNDLES, 'vendor-handlebars.js.map'), 'utf8')) as { sources: string[] }).sources;
    expect(sources.some((s) => s.includes(`${path.sep}handlebars${path.sep}`))).to.equal(true);
    expect(sources.filter((s) => s.includes(`node_modules${path.sep}source-map${path.sep}`))).to.deep.equal([]);
  });

  it('maps a stack trace back to dist/src with --enable-source-maps', () => {
    // main() given no arguments list fails inside the bundle: govern reports an internal error with its stack.
    const script = `require(${JSON.stringify(path.join(BUNDLES, 'govern.js'))}).main(null)`;
    const plain = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const mapped = spawnSync(process.execPath, ['--enable-source-maps', '-e', script], { encoding: 'utf8' });
    expect(plain.stderr).to.contain('internal error').and.to.contain(path.join('dist', 'bundle', 'govern.js'));
    expect(mapped.stderr).to.contain('internal error').and.to.contain(path.join(ROOT, 'dist', 'src', 'cli', 'main.js'));
  });
});
