// The apt_repository runner: properties -> where apt reads (apt-config) -> the key, checked -> decide
// -> write keys, then the source -> apt-get update pending. It uses only the request (no process
// globals), so a long-lived runner process can call it many times.
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import type { WholeFileCurrent, WholeFileDesired } from '../lib/whole-file/decide.js';
import { decideRepository, REPOSITORY_FILE_MODE, repositoryMessage } from '../lib/repository.js';
import { applyOrder } from './decide.js';
import { description } from './description.js';
import { aptRepositoryProperties, sourcesContent } from './properties.js';
import { aptProvider } from './provider-apt.js';

export function aptRepositoryRunner(): RunnerDefinition<typeof description> {
  // A repository can subscribe like any resource; a changed one has its index refreshed without a signal.
  return applyOnlyRunner('apt_repository', description, 'a repository', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = aptRepositoryProperties(request);
  const provider = aptProvider(providerContext(request.env, request.log));
  const { sourcesDir, keyringsDir } = await provider.paths();
  const sourcesFile = path.join(sourcesDir, `${props.name}.sources`);
  const keyFiles = { asc: path.join(keyringsDir, `${props.name}.asc`), gpg: path.join(keyringsDir, `${props.name}.gpg`) };
  const current = {
    sources: await readWholeFile(sourcesFile),
    asc: await readWholeFile(keyFiles.asc),
    gpg: await readWholeFile(keyFiles.gpg),
  };

  const present = props.ensure === 'present';
  const key = present && props.key !== undefined ? await provider.signingKey(props, written(current.asc) ?? written(current.gpg)) : undefined;
  const keyFile = key === undefined ? undefined : key.armored ? keyFiles.asc : keyFiles.gpg;
  const file = (at: string, content: Buffer | undefined): WholeFileDesired => ({
    path: at,
    ensure: content === undefined ? 'absent' : 'present',
    content,
    mode: REPOSITORY_FILE_MODE,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
  });
  const sourcesText = present ? Buffer.from(sourcesContent(props, keyFile), 'utf8') : undefined;
  const plan = decideRepository([
    { desired: file(sourcesFile, sourcesText), current: current.sources },
    { desired: file(keyFiles.asc, key?.armored ? key.content : undefined), current: current.asc },
    { desired: file(keyFiles.gpg, key && !key.armored ? key.content : undefined), current: current.gpg },
  ]);
  const [sources, ...keys] = plan.files;
  const diffText = sources.plan.contentChanged ? wholeFileDiff(sourcesFile, current.sources, sourcesText, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (keys.some((k) => k.plan.contentChanged)) request.log(`${keyFile ?? 'the key'}: another key (diff not shown)`);
  if (request.noop || !plan.changed) return { changed: plan.changed, message: repositoryMessage(plan, request.noop, 'apt-get update'), ...diff };

  for (const f of applyOrder(keys, sources)) await applyWholeFile(f.desired, f.plan, f.current);
  const refresh = await provider.indexChanged(request.env.GOVERN_RUN_DIR);
  return { changed: true, message: repositoryMessage(plan, false, 'apt-get update', refresh), ...diff };
}

function written(current: WholeFileCurrent): Buffer | undefined {
  return current.type === 'file' ? current.content : undefined;
}
