// The file runner: validate -> status -> decide -> act -> re-check. It uses only the request (no
// process globals), so a long-lived runner process can call it many times.
import crypto from 'node:crypto';
import { providerContext, type ProviderContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { contentDiff } from '../lib/content-diff.js';
import { chooseProvider, type ProviderOption } from '../kit/provider-choice.js';
import { decide, mismatches, planMessage, type Action, type Plan } from './decide.js';
import { asUserError } from '../../shared/errors.js';
import { description } from './description.js';
import { fileProperties, type FileProperties } from './properties.js';
import { pendingNote, pendingResource, type Missing } from '../kit/noop-pending.js';
import type { Account, AccountSpec } from '../lib/accounts/lookup.js';
import { accountName, findAccount, unknownAccount } from '../lib/accounts/lookup.js';
import { posixProvider } from '../lib/file/posix.js';
import { describeEntries, removeEntries, unmanagedEntries, type Entry } from './purge.js';
import { planTree, treeSummary, type ChildPlan } from './recurse.js';
import { validateContent } from '../lib/file/validate-content.js';
import { backUp, backupWanted } from '../lib/file/backup.js';
import type { Attributes, Current, FileProvider } from '../lib/file/state.js';
import type { Desired } from './desired.js';

/** Files larger than this get no diff. */
export const DIFF_LIMIT = 1024 * 1024;

/** The file providers; posix, which works on any POSIX file system, is the only one. */
export const FILE_PROVIDERS: ProviderOption<FileProvider, FileProperties>[] = [
  { name: 'posix', tools: ['getent'], suits: () => 'the file system', create: () => posixProvider },
];

export function fileRunner(providers = FILE_PROVIDERS): RunnerDefinition<typeof description> {
  return {
    name: 'file',
    description,
    async run(request) {
      // The only signal accepted: a file has nothing to refresh.
      if (request.signal !== undefined) return { changed: false, message: 'refresh: nothing to do for a file' };
      try {
        return await apply(request, providers);
      } catch (e) {
        throw asUserError(e);
      }
    },
  };
}

async function apply(request: RunnerRequest<Values<typeof description>>, providers: ProviderOption<FileProvider, FileProperties>[]): Promise<RunnerResult> {
  const props = fileProperties(request);
  const context = providerContext(request.env, request.log);
  const provider = await chooseProvider('file provider', providers, undefined, props, context);
  const missing: Missing[] = [];
  const desired = await resolveDesired(props, provider, context, account(request, context, missing));
  const current = await provider.status(desired.path, {
    checkEmpty: desired.ensure !== 'directory',
    keepContentUpTo: desired.content && desired.showDiff ? DIFF_LIMIT : 0,
  });
  await nameCurrentAccounts(desired, current, context);

  const decided = decide(desired, current, request.noop);
  const tree = props.recurse ? await planTree(desired, props.source!, provider, request.noop, current.type === 'directory') : undefined;
  const sourced = tree?.entries.filter((e) => !e.rel.includes('/')).map((e) => e.rel) ?? [];
  const purged = props.purge && current.type === 'directory' ? await unmanagedEntries(props.path, request.managed && [...request.managed, ...sourced], provider) : [];
  const plan = withPurge(withTree(decided, tree?.children ?? []), purged);
  for (const warning of plan.warnings) request.log(warning);
  const diffText = plan.contentChanged ? fileDiff(request, desired, current) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  // The new content is checked in noop mode as well: a temporary file beside the target, nothing live.
  const validate = plan.changed && plan.action.kind === 'store' && desired.content ? props.validate : undefined;
  if (validate !== undefined) await validateContent(validate, desired.path, desired.content!.bytes, context, request.noop);
  if (request.noop || !plan.changed) return { changed: plan.changed, message: planMessage(plan, request.noop) + (missing.length > 0 ? ` (${pendingNote(missing)})` : ''), ...diff };

  if (backupWanted(props.backup, request.env) && plan.contentChanged && current.type === 'file') request.log(`backed up the old content to ${backUp(desired.path, request.env)}`);
  await act(provider, desired, plan);
  await removeEntries(desired.path, purged, provider);
  for (const child of tree?.children ?? []) await act(provider, child.desired, child.plan);
  const wrong: string[] = [];
  for (const { desired: d } of [{ desired }, ...(tree?.children ?? [])]) {
    const found = mismatches(d, await provider.status(d.path, { checkEmpty: false, keepContentUpTo: 0 }));
    if (found.length > 0) wrong.push(d === desired ? found.join('; ') : `${d.path}: ${found.join('; ')}`);
  }
  if (wrong.length > 0) throw new UserError(`${desired.path} did not reach the desired state after ${plan.summary}: ${wrong.join('; ')}`);
  return { changed: true, message: planMessage(plan, false), ...diff };
}

/** The decision, with the tree's entries that change: changed, each named in the message. */
function withTree(plan: Plan, children: ChildPlan[]): Plan {
  if (children.length === 0) return plan;
  const copied = `copied from the source: ${treeSummary(children)}`;
  return { ...plan, changed: true, summary: plan.changed ? `${plan.summary}; ${copied}` : copied, warnings: [...plan.warnings, ...children.flatMap((c) => c.plan.warnings)] };
}

/** The decision, with what purge removes: changed, and named in the message. */
function withPurge(plan: Plan, purged: Entry[]): Plan {
  if (purged.length === 0) return plan;
  const removal = `removed ${purged.length} ${purged.length === 1 ? 'entry' : 'entries'} not managed: ${describeEntries(purged)}`;
  return { ...plan, changed: true, summary: plan.changed ? `${plan.summary}; ${removal}` : removal };
}

type Resolve = (db: 'passwd' | 'group', spec: AccountSpec) => Promise<Account>;

/**
 * Looks up an owner or group. In noop mode, one that an earlier resource of the run would create
 * (GOVERN_NOOP_PENDING: the user, or for a group also the user whose own group useradd makes) stands
 * for an id no file has yet, with a note naming that resource.
 */
function account(request: RunnerRequest<unknown>, context: ProviderContext, missing: Missing[]): Resolve {
  return async (db, spec) => {
    const found = await findAccount(db, spec, context);
    if (found) return found;
    const name = spec.kind === 'name' ? spec.name : String(spec.id);
    const creator = db === 'passwd' ? pendingResource(request, `user:${name}`) : pendingResource(request, `group:${name}`, `user:${name}`);
    if (!creator) throw new UserError(unknownAccount(db, name));
    missing.push({ what: `${db === 'passwd' ? 'user' : 'group'} "${name}"`, ref: creator });
    return { id: -1, label: name };
  };
}

async function resolveDesired(props: FileProperties, provider: FileProvider, context: ProviderContext, resolveAccount: Resolve): Promise<Desired> {
  const desired: Desired = { path: props.path, ensure: props.ensure, mode: props.mode, linkTarget: props.target, force: props.force, showDiff: props.showDiff };
  // For absent, owner and group only order the removal (before the user's and group's): not looked up.
  if (props.owner && props.ensure !== 'absent') desired.owner = await resolveAccount('passwd', props.owner);
  if (props.group && props.ensure !== 'absent') desired.group = await resolveAccount('group', props.group);
  if (props.ensure === 'present' && (props.contents !== undefined || props.source !== undefined)) {
    const bytes = props.source !== undefined ? await provider.readSource(props.source) : Buffer.from(props.contents!, 'utf8');
    desired.content = { bytes, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), origin: props.source ?? 'contents' };
  }
  return desired;
}

/** Messages name the current owner and group when they change ("owner alice -> root"). */
async function nameCurrentAccounts(desired: Desired, current: Current, context: ProviderContext): Promise<void> {
  if (current.type === 'absent' || current.type === 'other') return;
  const names: { owner?: string; group?: string } = {};
  if (desired.owner && desired.owner.id !== current.attrs.uid) names.owner = await accountName('passwd', current.attrs.uid, context);
  if (desired.group && desired.group.id !== current.attrs.gid) names.group = await accountName('group', current.attrs.gid, context);
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
    case 'link':
      return provider.createLink(desired.path, desired.linkTarget!, linkOwner(desired), action.replacing, action.recursive);
    case 'update-link':
      return provider.updateLink(desired.path, linkOwner(desired));
  }
}

function attributes(desired: Desired): Attributes {
  if (!desired.owner || !desired.group || desired.mode === undefined) throw new Error('owner, group and mode were validated as required');
  return { uid: desired.owner.id, gid: desired.group.id, mode: desired.mode };
}

/** A link's own owner and group, each only when given. */
function linkOwner(desired: Desired): { uid?: number; gid?: number } {
  return { uid: desired.owner?.id, gid: desired.group?.id };
}

/**
 * A unified diff of an existing file's content change, for the result; when it is hidden, binary or
 * too large, a log line says why there is none.
 */
function fileDiff(request: RunnerRequest<unknown>, desired: Desired, current: Current): string | undefined {
  if (current.type !== 'file' || !desired.content) return undefined;
  if (!desired.showDiff) return void request.log('content changed (diff not shown: show_diff = false)');
  return contentDiff(desired.path, current.content, desired.content.bytes, [current.attrs.mode, desired.mode], request.log, DIFF_LIMIT);
}
