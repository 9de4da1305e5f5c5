// dpkg-query reads the whole status database whether it is asked about one package or all of
// them, so a persistent pkg runner asks once for all of them and answers from that snapshot. The
// snapshot holds only while the database is the one it was read from: dpkg replaces its status file
// (and journals into updates/) on every change, by this runner, an exec, or any other tool, so a
// changed file or directory means a new query.
import fs from 'node:fs';

export const DPKG_DATABASE = ['/var/lib/dpkg/status', '/var/lib/dpkg/updates'];

type Query = () => Promise<string>;

export class DpkgSnapshot {
  private stamp: string | undefined;
  /** Status lines by package name, and by name:arch. */
  private lines = new Map<string, string[]>();

  constructor(private readonly database: string[] = DPKG_DATABASE) {}

  /** A query started ahead (prefetch), and the database state it started from. */
  private early: { stamp: string; done: Promise<unknown> } | undefined;

  /** The status lines of one package (`name` or `name:arch`), from a fresh query when the database changed. */
  async linesFor(pkg: string, queryAll: Query): Promise<string[]> {
    if (this.early && this.early.stamp === this.databaseStamp()) await this.early.done;
    const now = this.databaseStamp();
    if (now === undefined || now !== this.stamp) await this.refresh(now, queryAll);
    return this.lines.get(pkg) ?? [];
  }

  /** Reads the database now, ahead of the first question; a failure leaves the question to query itself. */
  prefetch(queryAll: Query): Promise<unknown> {
    const now = this.databaseStamp();
    if (now === undefined) return Promise.resolve();
    const done = this.refresh(now, queryAll).catch(() => undefined);
    this.early = { stamp: now, done };
    return done;
  }

  private async refresh(now: string | undefined, queryAll: Query): Promise<void> {
    this.index(await queryAll());
    // Stamped with the state before the query: a change during it makes the next call query again.
    this.stamp = now;
  }

  private databaseStamp(): string | undefined {
    try {
      return this.database
        .map((p) => {
          const st = fs.statSync(p);
          return `${st.ino}:${st.size}:${st.mtimeMs}`;
        })
        .join('|');
    } catch {
      return undefined; // not a dpkg database we can watch: query every time
    }
  }

  private index(stdout: string): void {
    this.lines = new Map();
    for (const line of stdout.split('\n')) {
      const [name, , arch] = line.trim().split(' ');
      if (!name || !arch) continue;
      for (const key of [name, `${name}:${arch}`]) {
        const list = this.lines.get(key);
        if (list) list.push(line);
        else this.lines.set(key, [line]);
      }
    }
  }
}
