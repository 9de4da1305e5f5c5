// Where apt reads its sources and where the keys go, asked of apt itself (`apt-config`), so that
// an APT_CONFIG file that moves apt's directories (a chroot, a test) moves what the runner writes
// with it: Dir::Etc::sourceparts for the .sources file, Dir::Etc's keyrings/ for the key (Debian's
// place for keys an administrator adds, /etc/apt/keyrings).
import path from 'node:path';
import { query, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';

export interface AptPaths {
  sourcesDir: string;
  keyringsDir: string;
}

/** One question per process and APT_CONFIG: a persistent runner asks once per run. */
const known = new Map<string, Promise<AptPaths>>();

export function aptPaths(context: ProviderContext): Promise<AptPaths> {
  const key = context.env.APT_CONFIG ?? '';
  let answer = known.get(key);
  if (!answer) {
    answer = ask(context);
    known.set(key, answer);
    answer.catch(() => known.delete(key));
  }
  return answer;
}

async function ask(context: ProviderContext): Promise<AptPaths> {
  const result = await query(context, ['apt-config', 'shell', 'SOURCES', 'Dir::Etc::sourceparts/d', 'ETC', 'Dir::Etc/d'], { env: { LC_ALL: 'C' } });
  if (result.code !== 0) throw new UserError(`apt-config could not tell where apt reads its sources (exit ${result.code}): ${result.stderr.trim()}`);
  const value = (name: string) => new RegExp(`^${name}='(/[^']*)'$`, 'm').exec(result.stdout)?.[1];
  const sources = value('SOURCES');
  const etc = value('ETC');
  if (sources === undefined || etc === undefined) throw new UserError(`apt-config shell gave no absolute Dir::Etc::sourceparts and Dir::Etc: ${result.stdout.trim()}`);
  return { sourcesDir: path.normalize(sources), keyringsDir: path.join(etc, 'keyrings') };
}
