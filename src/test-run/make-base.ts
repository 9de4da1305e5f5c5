// `govern test --make-base debian:12 DIR`: a clean Debian root for `--base`, made by Debian's
// debootstrap (minbase) from the mirror of this host's apt sources. DIR is the cache: a second call
// for the same suite finds it (its stamp, DIR/.govern-base.json) and returns at once; it is never
// updated nor replaced: removing DIR makes it anew (docs/test.md, "A clean machine as the base").
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../shared/errors.js';
import { lastLines, runCommand } from '../shared/process.js';
import { onPath } from './on-path.js';

/** The suites govern knows, by the name given after `debian:`. */
const CODENAMES: Record<string, string> = { '11': 'bullseye', '12': 'bookworm', '13': 'trixie' };
const DEFAULT_MIRROR = 'http://deb.debian.org/debian';
export const STAMP = '.govern-base.json';
const VARIANT = 'minbase';

export interface BaseStamp {
  suite: string;
  codename: string;
  mirror: string;
  variant: string;
  made: string;
}

export interface MakeBaseOutcome {
  exit: 0 | 2;
  message: string;
}

/** The first URI of this host's apt sources that serves the codename; else one of Debian's main archive. */
export function mirrorFromSources(texts: string[], codename: string): string {
  const found: { uri: string; suites: string[] }[] = [];
  for (const text of texts) {
    for (const stanza of text.split(/\n\s*\n/)) {
      const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'mi').exec(stanza)?.[1].trim().split(/\s+/) ?? [];
      if (field('Types').includes('deb')) for (const uri of field('URIs')) found.push({ uri, suites: field('Suites') });
    }
    for (const line of text.split('\n')) {
      const m = /^deb(?:\s+\[[^\]]*\])?\s+(\S+)\s+(\S+)/.exec(line.trim());
      if (m) found.push({ uri: m[1], suites: [m[2]] });
    }
  }
  const plain = (uri: string) => /^https?:\/\//.test(uri) && !/security/.test(uri);
  return (found.find((f) => plain(f.uri) && f.suites.includes(codename)) ?? found.find((f) => plain(f.uri) && /\/debian\/?$/.test(f.uri)))?.uri ?? DEFAULT_MIRROR;
}

function hostSources(): string[] {
  const files = ['/etc/apt/sources.list'];
  try {
    for (const n of fs.readdirSync('/etc/apt/sources.list.d')) if (n.endsWith('.sources') || n.endsWith('.list')) files.push(path.join('/etc/apt/sources.list.d', n));
  } catch {
    // none
  }
  return files.flatMap((f) => {
    try {
      return [fs.readFileSync(f, 'utf8')];
    } catch {
      return [];
    }
  });
}

export function readStamp(dir: string): BaseStamp | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8')) as BaseStamp;
  } catch {
    return undefined;
  }
}

const isEmptyDir = (dir: string) => fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0;

/** The base already in DIR, or why DIR cannot be one (bad input: exit 1); undefined: DIR is to be made. */
function cached(dir: string, suite: string): MakeBaseOutcome | undefined {
  if (!fs.existsSync(dir) || isEmptyDir(dir)) return undefined;
  const stamp = readStamp(dir);
  if (stamp === undefined) throw new UserError(`--make-base: ${dir} is not empty and is not a base govern test made (no ${STAMP}): it is never replaced`);
  if (stamp.suite !== suite) throw new UserError(`--make-base: ${dir} holds a base of ${stamp.suite}, not ${suite}: remove it, or give another DIR`);
  return { exit: 0, message: `reused the base ${suite} in ${dir}, made ${stamp.made} from ${stamp.mirror} (remove ${dir} to make it anew)` };
}

export async function makeBase(suite: string, dir: string, env: NodeJS.ProcessEnv): Promise<MakeBaseOutcome> {
  const codename = /^debian:(\d+)$/.test(suite) ? CODENAMES[suite.slice('debian:'.length)] : undefined;
  if (codename === undefined) throw new UserError(`--make-base ${suite}: not a suite govern knows (${Object.keys(CODENAMES).map((v) => `debian:${v}`).join(', ')})`);
  const target = path.resolve(dir);
  const found = cached(target, suite);
  if (found) return found;
  if (process.getuid?.() !== 0) return { exit: 2, message: 'cannot make the base: debootstrap runs as root' };
  if (onPath('debootstrap', env) === undefined) return { exit: 2, message: 'cannot make the base: debootstrap not found on PATH (Debian\'s debootstrap package: apt-get install debootstrap)' };
  const mirror = mirrorFromSources(hostSources(), codename);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  // Made beside DIR and renamed into place: an interrupted debootstrap never leaves a base that looks made.
  const partial = fs.mkdtempSync(`${target}.partial-`);
  let done = false;
  try {
    fs.chmodSync(partial, 0o755);
    const started = Date.now();
    const r = await runCommand('debootstrap', [`--variant=${VARIANT}`, codename, partial, mirror], { env, timeoutMs: 3_600_000, headAndTail: 16 * 1024 });
    if (r.code !== 0) {
      const why = lastLines((r.stdout + '\n' + r.stderr).trim(), 4);
      return { exit: 2, message: `cannot make the base: debootstrap ${codename} from ${mirror} failed (exit ${r.code}; is the mirror reachable?): ${why}` };
    }
    const stamp: BaseStamp = { suite, codename, mirror, variant: VARIANT, made: new Date().toISOString() };
    fs.writeFileSync(path.join(partial, STAMP), JSON.stringify(stamp) + '\n', { mode: 0o644 });
    if (fs.existsSync(target)) fs.rmdirSync(target);
    try {
      fs.renameSync(partial, target);
    } catch (e) {
      // Another govern test made it meanwhile: that one is the cache.
      const other = cached(target, suite);
      if (other) return other;
      throw e;
    }
    done = true;
    return { exit: 0, message: `made the base ${suite} in ${dir} (debootstrap --variant=${VARIANT} ${codename} from ${mirror}) in ${((Date.now() - started) / 1000).toFixed(0)}s` };
  } finally {
    if (!done) fs.rmSync(partial, { recursive: true, force: true });
  }
}
