// How bin/govern starts the core bundle: compiled with V8's code cache of an earlier start of the same
// command when one is kept, else compiled as `require` would and the cache written at exit for the next
// start (bench/README.md, "Start-up, round three"). The entries (`code-COMMAND.bin`; `code-options.bin`
// when the first argument is an option, as `--version`) sit in the runners' cache directory, under its
// rules (shared/trust.ts: private to the user running govern). One that is missing, stale (another
// bundle, another Node), damaged (V8 refuses it) or untrusted only costs the compile it would have
// saved. Nothing here loads node:crypto, which would cost a start more than the cache saves.
// GOVERN_CODE_CACHE=0 turns it off.
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { enableLinearEngine } from '../shared/bounded-match.js';
import { defaultCacheDir } from '../shared/cache-dir.js';
import { openPrivateDirectory, ownedAndPrivate, type DirectoryHandle } from '../shared/trust.js';

const FORMAT = 'govern-code-cache-1';

/** A command word the cache is kept for: the cache of `run` holds what a run compiles. */
const COMMAND_WORD = /^[a-z]{2,12}$/;

export function startBundle(bundle: string, argv: string[]): void {
  (loadBundle(bundle, argv[0]) as { main(argv: string[]): void }).main(argv);
}

export function loadBundle(file: string, command: string | undefined): unknown {
  const word = command === undefined || command.startsWith('-') ? 'options' : command;
  if (process.env.GOVERN_CODE_CACHE === '0' || !COMMAND_WORD.test(word)) return require(file);
  let wrapped: { source: string; st: fs.Stats };
  try {
    wrapped = readWrapped(file);
  } catch {
    return require(file); // Node says what is wrong with it
  }
  const { st } = wrapped;
  const header = `${[FORMAT, process.version, process.arch, file, st.size, st.mtimeMs, st.ino].join('\0')}\n`;
  // The bundle sets this V8 flag when it loads (shared/bounded-match.ts), so the cached code it writes
  // at exit is marked with it: set before the compile, or V8 refuses that code at every start.
  enableLinearEngine();
  const dir = openPrivateDirectory(defaultCacheDir());
  const entry = dir?.at(`code-${word}.bin`);
  const cachedData = entry === undefined ? undefined : readEntry(entry, header);
  const script = new vm.Script(wrapped.source, { filename: file, cachedData });
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  require.cache[file] = loaded;
  (script.runInThisContext() as (...args: unknown[]) => void).call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
  // Written once the command has run, so that it holds the functions the command compiled; not after
  // a failure (a mistyped command word gets no entry).
  if (dir !== undefined && entry !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', (code) => {
      if (code === 0) writeEntry(dir, entry, header, script.createCachedData());
    });
  }
  return loaded.exports;
}

/**
 * The bundle's text inside the CommonJS wrapper, decoded once from one buffer: `Module.wrap(source)`
 * would keep a second copy of the megabyte of text until the process ends, in its peak memory
 * (bench/README.md, "Round eight").
 */
function readWrapped(file: string): { source: string; st: fs.Stats } {
  const [head, tail] = (Module as unknown as { wrapper: [string, string] }).wrapper;
  const fd = fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd);
    const buf = Buffer.allocUnsafe(head.length + st.size + tail.length);
    let at = buf.write(head, 0, 'latin1');
    const end = at + st.size;
    while (at < end) {
      const n = fs.readSync(fd, buf, at, end - at, null);
      if (n === 0) throw new Error(`${file}: shorter than its size`);
      at += n;
    }
    buf.write(tail, at, 'latin1');
    return { source: buf.toString('utf8'), st };
  } finally {
    fs.closeSync(fd);
  }
}

/** The cached code after the header, when the entry is the user's own, private, and for this bundle. */
function readEntry(entry: string, header: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(entry, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || !ownedAndPrivate(st)) return undefined;
    const data = fs.readFileSync(fd);
    return data.subarray(0, header.length).toString('utf8') === header ? data.subarray(header.length) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeEntry(dir: DirectoryHandle, entry: string, header: string, data: Buffer): void {
  const temp = dir.at(`.code-${process.pid}-${Date.now()}.tmp`);
  try {
    fs.writeFileSync(temp, Buffer.concat([Buffer.from(header), data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, entry);
  } catch {
    fs.rmSync(temp, { force: true }); // a cache that cannot be written is only slower
  }
}
