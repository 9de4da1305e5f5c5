// The dnf_repository runner: properties -> decide -> write or remove the .repo file -> dnf makecache
// pending. It uses only the request (no process globals), so a long-lived runner process can call it
// many times.
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { decideRepository, REPOSITORY_FILE_MODE, repositoryMessage } from '../lib/repository.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { description } from './description.js';
import { dnfRepositoryProperties, repoContent, REPOS_DIR } from './properties.js';
import { dnfProvider } from './provider-dnf.js';

export function dnfRepositoryRunner(): RunnerDefinition<typeof description> {
  // A repository can subscribe like any resource; a changed one has its index refreshed without a signal.
  return applyOnlyRunner('dnf_repository', description, 'a repository', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = dnfRepositoryProperties(request);
  const provider = dnfProvider(providerContext(request.env, request.log));
  const file = path.join(REPOS_DIR, `${props.name}.repo`);
  const content = props.ensure === 'present' ? Buffer.from(repoContent(props), 'utf8') : undefined;
  const desired = { path: file, ensure: props.ensure, content, mode: REPOSITORY_FILE_MODE, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const current = await readWholeFile(file);
  const plan = decideRepository([{ desired, current }]);
  const diffText = plan.files[0].plan.contentChanged ? wholeFileDiff(file, current, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !plan.changed) return { changed: plan.changed, message: repositoryMessage(plan, request.noop, 'dnf makecache'), ...diff };

  await applyWholeFile(desired, plan.files[0].plan, current);
  const refresh = await provider.indexChanged(request.env.GOVERN_RUN_DIR);
  return { changed: true, message: repositoryMessage(plan, false, 'dnf makecache', refresh), ...diff };
}
