// The group runner: validate -> read the group -> decide -> act -> re-check. It uses only the
// request (no process globals), so a long-lived runner process can call it many times.
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { allUsers, type PasswdEntry } from '../lib/accounts/database.js';
import { listManaged } from '../lib/accounts/managed-list.js';
import { planMessage } from '../lib/accounts/plan.js';
import { decide, mismatches, type DesiredGroup } from './decide.js';
import { description } from './description.js';
import { groupProvider } from './providers.js';
import { readGroup } from './read.js';

export function groupRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('group', description, 'a group', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const v = request.values;
  const desired: DesiredGroup = {
    name: request.name,
    ensure: v.ensure,
    gid: v.gid,
    system: v.system,
    members: listManaged(request, 'members', 'members_mode'),
    membersMode: v.members_mode,
  };
  const context = providerContext(request.env, request.log);
  let users: PasswdEntry[] = await allUsers(context);
  checkMembers(desired, users, request);
  const current = await readGroup(context, desired.name, users);
  const plan = decide(desired, current);
  // Chosen only when there is something to do, and asked in noop too whether it can do it.
  const provider = plan.changed ? await groupProvider(v.provider, context) : undefined;
  const refused = plan.action.kind === 'modify' ? provider?.refuses(plan.action) : undefined;
  if (refused) throw new UserError(`group ${desired.name}: cannot apply ${plan.summary}: ${refused}`);
  const message = planMessage(plan, request.noop);
  if (request.noop || !provider) return { changed: plan.changed, message };

  const action = plan.action;
  if (action.kind === 'create') await provider.create(desired);
  else if (action.kind === 'modify') await provider.modify(desired.name, action.gid, action.members, current.exists ? current.members : []);
  else if (action.kind === 'remove') await provider.remove(desired.name);
  users = await allUsers(context);
  const wrong = mismatches(desired, await readGroup(context, desired.name, users));
  if (wrong.length > 0) throw new UserError(`group ${desired.name} did not reach the desired state after ${plan.summary}: ${wrong.join('; ')}`);
  return { changed: true, message };
}

/** Members must be users; in noop mode an earlier resource may be the one that would create them. */
function checkMembers(desired: DesiredGroup, users: PasswdEntry[], request: RunnerRequest<unknown>): void {
  const unknown = (desired.members ?? []).filter((m) => !users.some((u) => u.name === m));
  if (desired.ensure === 'absent' || unknown.length === 0) return;
  const problem = `member ${unknown.join(', ')}: no such user (getent passwd found no entry)`;
  if (!request.noop) throw new UserError(problem);
  request.log(`warning: ${problem}`);
}
