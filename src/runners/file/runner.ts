// The file runner: validate -> status -> decide -> act -> re-check. It uses only the request (no
// process globals), so a long-lived runner process can call it many times.
import crypto from 'node:crypto';
import type { RunnerResult } from '../../shared/protocol.js';
import { RunnerError, unknownSignal, type Runner, type RunnerRequest } from '../kit.js';
import { decide, mismatches, planMessage, type Action, type Plan } from './decide.js';
import { isBinary, unifiedDiff } from './diff.js';
import { parseProperties, type FileProperties } from './properties.js';
import { accountName, resolveAccount } from './provider-getent.js';
import { posixProvider } from './provider-posix.js';
import type { Attributes, Current, Desired, FileProvider } from './state.js';

/** Files larger than this get no diff in the log. */
export const DIFF_LIMIT = 1024 * 1024;
const SIGNALS = ['refresh'];

export const runFile: Runner = (request) => fileRunner(posixProvider)(request);

export function fileRunner(provider: FileProvider): Runner {
  return async (request) => {
    if (request.signal !== undefined) {
      if (!SIGNALS.includes(request.signal)) throw unknownSignal(request.signal, SIGNALS);
      return { changed: false, message: 'refresh: nothing to do for a file' };
    }
    try {
      return await apply(request, provider);
    } catch (e) {
      throw asUserError(e);
    }
  };
}

async function apply(request: RunnerRequest, provider: FileProvider): Promise<RunnerResult> {
  const props = parseProperties(request.name, request.params, request.stateDir);
  const desired = await resolveDesired(props, provider, request.env);
  const current = await provider.status(desired.path, {
    checkEmpty: desired.ensure !== 'directory',
    keepContentUpTo: desired.content && desired.showDiff ? DIFF_LIMIT : 0,
  });
  await nameCurrentAccounts(desired, current, request.env);

  const plan = decide(desired, current, request.noop);
  for (const warning of plan.warnings) request.log(warning);
  if (plan.contentChanged) logDiff(request, desired, current);
  if (request.noop || !plan.changed) return { changed: plan.changed, message: planMessage(plan, request.noop) };

  await act(provider, desired, plan);
  const after = await provider.status(desired.path, { checkEmpty: false, keepContentUpTo: 0 });
  const wrong = mismatches(desired, after);
  if (wrong.length > 0) throw new RunnerError(`${desired.path} did not reach the desired state after ${plan.summary}: ${wrong.join('; ')}`);
  return { changed: true, message: planMessage(plan, false) };
}

async function resolveDesired(props: FileProperties, provider: FileProvider, env: NodeJS.ProcessEnv): Promise<Desired> {
  const desired: Desired = { path: props.path, ensure: props.ensure, mode: props.mode, force: props.force, showDiff: props.showDiff };
  if (props.owner) desired.owner = await resolveAccount('passwd', props.owner, env);
  if (props.group) desired.group = await resolveAccount('group', props.group, env);
  if (props.contents !== undefined || props.source !== undefined) {
    const bytes = props.source !== undefined ? await provider.readSource(props.source) : Buffer.from(props.contents!, 'utf8');
    desired.content = { bytes, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), origin: props.source ?? 'contents' };
  }
  return desired;
}

/** Messages name the current owner and group when they change ("owner alice -> root"). */
async function nameCurrentAccounts(desired: Desired, current: Current, env: NodeJS.ProcessEnv): Promise<void> {
  if (current.type !== 'file' && current.type !== 'directory') return;
  const names: { owner?: string; group?: string } = {};
  if (desired.owner && desired.owner.id !== current.attrs.uid) names.owner = await accountName('passwd', current.attrs.uid, env);
  if (desired.group && desired.group.id !== current.attrs.gid) names.group = await accountName('group', current.attrs.gid, env);
  current.names = names;
}

async function act(provider: FileProvider, desired: Desired, plan: Plan): Promise<void> {
  const action: Action = plan.action;
  switch (action.kind) {
    case 'none':
      return;
    case 'remove':
      return provider.remove(desired.path, action.type, action.recursive);
    case 'store': {
      const content = desired.content?.bytes ?? (action.keepContent ? 'keep-current' : Buffer.alloc(0));
      return provider.store(desired.path, content, attributes(desired), action.replacing, action.recursive);
    }
    case 'create-directory':
      return provider.createDirectory(desired.path, attributes(desired), action.replacing);
    case 'update-directory':
      return provider.updateDirectory(desired.path, attributes(desired));
  }
}

function attributes(desired: Desired): Attributes {
  if (!desired.owner || !desired.group || desired.mode === undefined) throw new Error('owner, group and mode were validated as required');
  return { uid: desired.owner.id, gid: desired.group.id, mode: desired.mode };
}

/** A unified diff of an existing file's content change, unless hidden, binary or too large. */
function logDiff(request: RunnerRequest, desired: Desired, current: Current): void {
  if (current.type !== 'file' || !desired.content) return;
  if (!desired.showDiff) return request.log('content changed (diff not shown: show_diff = false)');
  if (current.content === undefined || desired.content.bytes.length > DIFF_LIMIT) return request.log('content changed (diff not shown: larger than 1 MiB)');
  if (isBinary(current.content) || isBinary(desired.content.bytes)) return request.log('content changed (diff not shown: binary content)');
  const lines = unifiedDiff(current.content.toString('utf8'), desired.content.bytes.toString('utf8'), `${desired.path}\tcurrent`, `${desired.path}\tdesired`);
  if (lines === undefined) return request.log('content changed (diff not shown: too many changes)');
  for (const line of lines) request.log(line);
}

/** A system call's failure ("EACCES: permission denied, open '/etc/x'") is the user's to act on. */
function asUserError(e: unknown): unknown {
  const errno = e as NodeJS.ErrnoException;
  if (e instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') return new RunnerError(e.message);
  return e;
}
