// bin/govern keeps V8's compiled code of its bundle between starts (src/cli/start.ts): the second
// start of a command uses the first's, and a cache that is missing, stale, damaged or not private to
// the user running govern is passed over without a word: govern works the same, only slower.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/** `govern --version`: a command line the core answers (`--help` is answered without it). */
function version(cacheDir: string, env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(GOVERN, ['--version'], { encoding: 'utf8', env: { ...process.env, GOVERN_CACHE_DIR: cacheDir, ...env } });
  expect(r.stderr).to.equal('');
  expect(r.status).to.equal(0);
  expect(r.stdout).to.match(/^govern \d/);
  return r.stdout;
}

function codeEntries(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('code-')) : [];
}

describe('the code cache of bin/govern #once', () => {
  it('is written by the first start of a command and used, unchanged, by the next', () => {
    const dir = path.join(tempDir(), 'cache');
    const plain = version(dir, { GOVERN_CODE_CACHE: '0' });
    expect(codeEntries(dir)).to.deep.equal([]);
    expect(version(dir)).to.equal(plain);
    const [entry] = codeEntries(dir);
    expect(entry, 'an entry was written').to.equal('code-options.bin');
    const file = path.join(dir, entry!);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    const before = fs.statSync(file);
    const content = fs.readFileSync(file);
    expect(version(dir)).to.equal(plain);
    expect(fs.statSync(file).ino, 'not written again').to.equal(before.ino);
    expect(fs.readFileSync(file).equals(content)).to.equal(true);
  });

  it('a command that sets a V8 flag as it runs (the linear-time regexp engine) writes an entry the next start uses #once', () => {
    const dir = path.join(tempDir(), 'cache');
    const tree = path.join(tempDir(), 'tree');
    fs.mkdirSync(tree);
    fs.writeFileSync(path.join(tree, 'main.hcl'), 'file "/tmp/govern-code-cache-test" {\n  ensure   = "present"\n  contents = "x"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n}\n');
    const graph = (): void => {
      const r = spawnSync(GOVERN, ['graph', tree], { encoding: 'utf8', env: { ...process.env, GOVERN_CACHE_DIR: dir } });
      expect(r.stderr).to.equal('');
      expect(r.status).to.equal(0);
    };
    graph();
    const file = path.join(dir, 'code-graph.bin');
    const before = fs.statSync(file);
    graph();
    // Written again only when V8 refused it (src/cli/start.ts).
    expect(fs.statSync(file).ino, 'not written again: V8 took it').to.equal(before.ino);
  });

  it('an entry of another bundle or Node, or one V8 refuses, is passed over and written anew', () => {
    const dir = path.join(tempDir(), 'cache');
    version(dir);
    const file = path.join(dir, codeEntries(dir)[0]!);
    const good = fs.readFileSync(file);
    const header = good.subarray(0, good.indexOf(0x0a) + 1);
    for (const bad of [Buffer.alloc(4096, 0x5a), Buffer.concat([header, Buffer.alloc(4096, 0x5a)])]) {
      fs.writeFileSync(file, bad);
      version(dir);
      expect(fs.readFileSync(file).equals(bad), 'written anew').to.equal(false);
    }
  });

  it('an entry another user could have written is not used, and a directory others can write is not used at all', () => {
    const dir = path.join(tempDir(), 'cache');
    version(dir);
    const file = path.join(dir, codeEntries(dir)[0]!);
    fs.writeFileSync(file, Buffer.alloc(4096, 0x5a));
    fs.chmodSync(file, 0o666);
    version(dir);
    expect(fs.readFileSync(file).equals(Buffer.alloc(4096, 0x5a)), 'the open entry was replaced, not read').to.equal(false);

    const open = path.join(tempDir(), 'open');
    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    version(open);
    expect(codeEntries(open)).to.deep.equal([]);
  });

  it('a cache directory that cannot be made costs nothing but the cache', () => {
    const file = path.join(tempDir(), 'not-a-directory');
    fs.writeFileSync(file, '');
    version(path.join(file, 'cache'));
  });
});
