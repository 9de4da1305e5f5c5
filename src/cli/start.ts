// How bin/govern starts the core bundle: compiled with V8's code cache of an earlier start of the same
// command when one is kept, else compiled as `require` would and the cache written at exit for the next
// start (bench/README.md, "Round three"). The cache is an area of the parse cache's directory, under its
// rules (state/parse-cache.ts). One that is missing, stale (another bundle, another Node: V8 refuses
// it) or untrusted only costs the compile it would have saved. GOVERN_CODE_CACHE=0 turns it off.
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { defaultCacheDir, openParseCache } from '../state/parse-cache.js';

const FORMAT = 'govern-code-cache-1';

/** A command word the cache is kept for: the cache of `run` holds what a run compiles. */
const COMMAND_WORD = /^[a-z]{2,12}$/;

export function startBundle(bundle: string, argv: string[]): void {
  (loadBundle(bundle, argv[0]) as { main(argv: string[]): void }).main(argv);
}

export function loadBundle(file: string, command: string | undefined): unknown {
  const word = command === undefined || command.startsWith('-') ? 'help' : command;
  if (process.env.GOVERN_CODE_CACHE === '0' || !COMMAND_WORD.test(word)) return require(file);
  let source: string;
  let key: string;
  try {
    const st = fs.statSync(file);
    source = fs.readFileSync(file, 'utf8');
    key = [FORMAT, process.version, process.arch, file, st.size, st.mtimeMs, st.ino, word].join('\0');
  } catch {
    return require(file); // Node says what is wrong with it
  }
  const cache = openParseCache(defaultCacheDir(), 'code');
  const cachedData = cache.getBytes(key);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  require.cache[file] = loaded;
  (script.runInThisContext() as (...args: unknown[]) => void).call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
  // Written once the command has run, so that it holds the functions the command compiled.
  if (cachedData === undefined || script.cachedDataRejected === true) process.once('exit', () => cache.putBytes(key, script.createCachedData()));
  return loaded.exports;
}
