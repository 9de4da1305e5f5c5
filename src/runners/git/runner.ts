// The git runner: what the checkout is and what the revision means -> decide -> clone or fetch and
// check out. It uses only the request (no process globals), so a long-lived runner process can call
// it many times.
import fs from 'node:fs';
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import { trustedFile } from '../../shared/trust.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { removeTree, removeTreeByHandle } from '../lib/remove-tree.js';
import { withSbinPath } from '../../shared/find-program.js';
import { decideGit } from './decide.js';
import { description } from './description.js';
import { gitProperties, type GitProperties } from './properties.js';
import { gitProviderForUser, type GitProvider } from './provider-git.js';

export function gitRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('git', description, 'a git checkout', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = trusted(gitProperties(request));
  const git = await gitProviderForUser(providerContext(withSbinPath(request.env), request.log), props);
  git.refuseForeign();
  const current = await git.current();
  const plan = decideGit(props, current, request.noop);
  if (!plan.changed) return { changed: false, message: plan.message };
  if (request.noop) {
    // The commit is verified here when it is already fetched; else the real run verifies it after fetching.
    if (props.allowedSigners !== undefined && current.wanted !== undefined && (await git.has(current.wanted))) await mustBeSigned(git, props, current.wanted, 'move');
    return { changed: true, message: plan.message };
  }
  if (plan.action === 'clone' && props.allowedSigners === undefined) await git.clone();
  else if (plan.action === 'clone') {
    // Cloned without its files, so that nothing of a refused commit is checked out; a refused clone is removed.
    await git.clone(false);
    const sha = await git.fetch();
    try {
      await mustBeSigned(git, props, sha, 'clone');
    } catch (e) {
      removeClone(props.dir, current.dir === 'absent');
      throw e;
    }
    await git.checkout(sha, true);
  } else {
    const sha = await git.fetch();
    if (props.allowedSigners !== undefined) await mustBeSigned(git, props, sha, 'move');
    await git.checkout(sha);
  }
  const head = (await git.head()).slice(0, 12);
  return { changed: true, message: plan.action === 'clone' ? `${plan.message} (${head})` : plan.message.replace(/-> fetched/, `-> ${head}`) };
}

/** The allowed signers file decides what is checked out, so it is held to the rule of govern pull's (shared/trust.ts). */
function trusted(props: GitProperties): GitProperties {
  if (props.allowedSigners === undefined) return props;
  const checked = trustedFile(props.allowedSigners, 'the allowed signers file');
  if ('refused' in checked) throw new UserError(checked.refused);
  return { ...props, allowedSigners: checked.path };
}

async function mustBeSigned(git: GitProvider, props: GitProperties, sha: string, doing: 'clone' | 'move'): Promise<void> {
  const verdict = await git.verify(sha, props.allowedSigners!);
  if (verdict.ok) return;
  const what = doing === 'clone' ? `clone ${props.source} into ${props.dir} at` : `move ${props.dir} to`;
  const stays = doing === 'clone' ? `${props.dir} left as it was` : `${props.dir} stays where it is`;
  throw new UserError(`refusing to ${what} ${props.revision ?? 'the default branch'} (${sha.slice(0, 12)}): ${verdict.reason} (allowed signers: ${props.allowedSigners}); ${stays}`);
}

/**
 * What the refused clone made: the directory it created, or what it put in an empty one; by handle,
 * since with `user` it is that user's to change while root removes it (docs/security.md).
 */
function removeClone(dir: string, created: boolean): void {
  if (created) return removeTree(dir);
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  try {
    for (const name of fs.readdirSync(`/proc/self/fd/${fd}`)) removeTreeByHandle(`/proc/self/fd/${fd}`, name, path.join(dir, name));
  } finally {
    fs.closeSync(fd);
  }
}
