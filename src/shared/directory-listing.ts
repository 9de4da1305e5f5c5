// A persistent runner reads the same directories for every resource (the sysv provider reads five
// rc?.d directories for each service, each as long as the host has services), which makes a run
// quadratic in the number of services. A listing is kept while the directory's stamp (device,
// inode, change time to the nanosecond) is the one it was read under. Timestamps advance in clock
// ticks, so a change in the same tick as the read would leave the stamp as it was: a listing is
// kept only when the directory's last change is over a second older than the read (git's rule for
// "racily clean" entries).
import fs from 'node:fs';

const SETTLED_NS = 1_000_000_000n;

const kept = new Map<string, { stamp: string; entries: readonly string[] }>();

/** The names in DIR, as fs.readdirSync gives them (and throws as it does), read again only when DIR changed. */
export function listDirectory(dir: string): readonly string[] {
  const st = fs.statSync(dir, { bigint: true });
  const stamp = `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
  const hit = kept.get(dir);
  if (hit?.stamp === stamp) return hit.entries;
  const entries: readonly string[] = fs.readdirSync(dir);
  const now = BigInt(Date.now()) * 1_000_000n;
  if (now - st.ctimeNs > SETTLED_NS) kept.set(dir, { stamp, entries });
  else kept.delete(dir);
  return entries;
}
