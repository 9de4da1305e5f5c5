// The download runner: status -> decide -> fetch and write -> re-check, under the file's target
// lock. It uses only the request (no process globals), so a long-lived runner process can call it
// many times. The download is checked before anything is written: a mismatch is an error and the
// file stays as it was.
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { resolveAccount } from '../lib/accounts/lookup.js';
import { backUp, backupWanted } from '../lib/file/backup.js';
import { lockingTargets } from '../lib/target-lock.js';
import { editTarget } from '../lib/text-edit/keys.js';
import { decide, downloadMessage, type DownloadDesired } from './decide.js';
import { description } from './description.js';
import { fetchProvider } from './provider-fetch.js';

type Request = RunnerRequest<Values<typeof description>>;

export function downloadRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('download', description, 'a download', lockingTargets((r: Request) => [r.name], apply));
}

async function apply(request: Request): Promise<RunnerResult> {
  const v = request.values;
  const path = request.name;
  const context = providerContext(request.env, request.log);
  const provider = fetchProvider(context);
  const { newFile } = editTarget({ path, owner: v.owner, group: v.group, mode: v.mode, backup: v.backup });
  const attrs: DownloadDesired['attrs'] = {
    ...(newFile.owner ? { uid: (await resolveAccount('passwd', newFile.owner, context)).id } : {}),
    ...(newFile.group ? { gid: (await resolveAccount('group', newFile.group, context)).id } : {}),
    ...(v.mode !== undefined ? { mode: v.mode } : {}),
  };
  const desired: DownloadDesired = { path, ensure: v.ensure, url: v.url, sha256: v.checksum?.slice('sha256:'.length).toLowerCase(), attrs };
  const current = await provider.status(path);
  const plan = decide(desired, current, request.noop);
  for (const warning of plan.warnings) request.log(`warning: ${warning}`);
  if (request.noop || !plan.changed) return { changed: plan.changed, message: downloadMessage(plan, request.noop) };

  if (plan.remove) {
    if (backupWanted(v.backup, request.env)) request.log(`backed up the old content to ${backUp(path, request.env)}`);
    await provider.remove(path);
    return { changed: true, message: downloadMessage(plan, false) };
  }
  if (plan.fetch) {
    const got = await provider.fetch(desired.url!, v.max_size, v.timeout);
    if (got.sha256 !== desired.sha256) {
      throw new UserError(`${desired.url} does not match the checksum: expected sha256:${desired.sha256}, got sha256:${got.sha256} (${got.content.length} bytes); nothing was written`);
    }
    if (backupWanted(v.backup, request.env) && current.type === 'file') request.log(`backed up the old content to ${backUp(path, request.env)}`);
    await provider.store(path, got.content, plan.attrs!, current.type === 'file');
  } else {
    await provider.setAttributes(path, plan.attrs!);
  }
  const after = await provider.status(path);
  if (after.type !== 'file' || after.sha256 !== desired.sha256) {
    throw new UserError(`${path} did not match sha256:${desired.sha256} after govern wrote it; another process may have changed it, run again`);
  }
  return { changed: true, message: downloadMessage(plan, false) };
}
