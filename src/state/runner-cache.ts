// What planning keeps between runs, by the SHA-256 of what it was found from: runners' descriptions,
// the runners a tree used and state files parsed and checked (each kind an area, `kind-HASH.json`;
// state/parse-cache.ts). The cache decides
// what runs as root, so it is used only when its directory and entries belong to the user running
// govern and no one else can write them, and every entry is reached through the directory checked (below).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { openPrivateDirectory, ownedAndPrivate, type DirectoryHandle } from '../shared/trust.js';
import { allNumbersFinite } from './finite.js';

const FORMAT = 'govern-cache-4';
/** Entries not used for this long are removed when new ones are written. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

export interface RunnerCache {
  get(text: string): Record<string, unknown> | undefined;
  put(text: string, parsed: Record<string, unknown>): void;
  /** Entries of another kind (runners' descriptions), in the same directory under the same rules. */
  area(kind: string): RunnerCache;
}

export const noCache: RunnerCache = { get: () => undefined, put: () => undefined, area: () => noCache };

/** Entries kept in this process alone (`govern lsp`'s, between its checks): each read is a copy, as one from a file is. */
export function memoryCache(): RunnerCache {
  const areas = new Map<string, RunnerCache>();
  const entries = new Map<string, string>();
  return {
    get: (text) => {
      const kept = entries.get(text);
      return kept === undefined ? undefined : (JSON.parse(kept) as Record<string, unknown>);
    },
    put: (text, parsed) => {
      if (allNumbersFinite(parsed)) entries.set(text, JSON.stringify(parsed));
    },
    area: (kind) => {
      let area = areas.get(kind);
      if (!area) areas.set(kind, (area = memoryCache()));
      return area;
    },
  };
}

export { defaultCacheDir } from '../shared/cache-dir.js';

/** `kind` names the entries (`plan-...json`), and only those are pruned. */
export function openRunnerCache(dir: string, kind = 'hcl'): RunnerCache {
  const handle = openPrivateDirectory(dir);
  if (handle === undefined) return noCache;
  const salt = `${FORMAT}\0`;
  const entry = (text: string) => handle.at(`${kind}-${crypto.createHash('sha256').update(salt).update(text).digest('hex')}.json`);
  let pruned = false;
  return {
    area: (other) => openRunnerCache(dir, other),
    get(text) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(entry(text), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
        const st = fs.fstatSync(fd);
        if (!st.isFile() || !ownedAndPrivate(st)) return undefined;
        const parsed = JSON.parse(fs.readFileSync(fd, 'utf8')) as Record<string, unknown>;
        const now = new Date();
        fs.futimesSync(fd, now, now); // recently used: kept by the pruning
        return parsed;
      } catch {
        return undefined;
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    },
    put(text, parsed) {
      if (!allNumbersFinite(parsed)) return; // JSON would turn Infinity into null: such a file is parsed every time
      const file = entry(text);
      const temp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
      try {
        fs.writeFileSync(temp, JSON.stringify(parsed), { mode: 0o600, flag: 'wx' });
        fs.renameSync(temp, file);
      } catch {
        fs.rmSync(temp, { force: true });
        return; // a cache that cannot be written is only slower
      }
      if (!pruned) {
        pruned = true;
        prune(handle, `${kind}-`);
      }
    },
  };
}

function prune(dir: DirectoryHandle, prefix: string): void {
  const cutoff = Date.now() - MAX_AGE_MS;
  for (const name of fs.readdirSync(dir.at(''))) {
    if (!name.startsWith(prefix)) continue;
    const file = dir.at(name);
    try {
      if (fs.lstatSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}
