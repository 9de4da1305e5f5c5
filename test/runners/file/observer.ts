// A separate process that watches one path in a tight loop while the runner rewrites it, and
// records anything that is not one of the allowed states (content hash + size + mode): a partial
// file, a file with the wrong mode, or no file at all.
// Usage: node observer.js CONFIG.json stat|content; prints a JSON summary when CONFIG.stopFile appears.
import crypto from 'node:crypto';
import fs from 'node:fs';

export interface ObservedState {
  label: string;
  sha256: string;
  size: number;
  mode: number;
}

export interface ObserverConfig {
  path: string;
  readyFile: string;
  stopFile: string;
  allowed: ObservedState[];
}

export interface ObserverSummary {
  /** Full reads (open, fstat, read, hash), by the state they matched. */
  seen: Record<string, number>;
  /** lstat() calls checked against the allowed sizes and modes. */
  quickChecks: number;
  bad: string[];
}

/**
 * "stat": lstat in a tight loop, checking type, size and mode (dense in time, cheap);
 * "content": open, fstat, read and hash the whole file (exact, but one look per full read).
 */
export type ObserverKind = 'stat' | 'content';

function observe(config: ObserverConfig, kind: ObserverKind): ObserverSummary {
  const summary: ObserverSummary = { seen: {}, quickChecks: 0, bad: [] };
  const report = (what: string) => {
    if (summary.bad.length < 20) summary.bad.push(what);
  };
  const deadline = Date.now() + 300_000;
  const readyFile = `${config.readyFile}.${kind}`;
  let ready = false;
  while (!fs.existsSync(config.stopFile) && Date.now() < deadline) {
    if (kind === 'stat') {
      for (let i = 0; i < 1000; i++) checkStat(config, summary, report);
    } else {
      checkContent(config, summary, report);
    }
    if (!ready) {
      fs.writeFileSync(readyFile, '');
      ready = true;
    }
  }
  return summary;
}

function checkStat(config: ObserverConfig, summary: ObserverSummary, report: (what: string) => void): void {
  summary.quickChecks++;
  try {
    const st = fs.lstatSync(config.path);
    const mode = st.mode & 0o7777;
    if (!st.isFile()) report(`not a regular file (mode ${st.mode.toString(8)})`);
    else if (!config.allowed.some((s) => s.size === st.size && s.mode === mode)) report(`size ${st.size} with mode ${mode.toString(8)}`);
  } catch (e) {
    report(`stat: ${(e as Error).message}`);
  }
}

function checkContent(config: ObserverConfig, summary: ObserverSummary, report: (what: string) => void): void {
  try {
    const fd = fs.openSync(config.path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const mode = fs.fstatSync(fd).mode & 0o7777;
      const sha256 = crypto.createHash('sha256').update(fs.readFileSync(fd)).digest('hex');
      const match = config.allowed.find((s) => s.sha256 === sha256 && s.mode === mode);
      if (match) summary.seen[match.label] = (summary.seen[match.label] ?? 0) + 1;
      else report(`content ${sha256.slice(0, 12)} with mode ${mode.toString(8)}`);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    report(`read: ${(e as Error).message}`);
  }
}

if (require.main === module) {
  const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as ObserverConfig;
  process.stdout.write(JSON.stringify(observe(config, process.argv[3] as ObserverKind)) + '\n');
}
