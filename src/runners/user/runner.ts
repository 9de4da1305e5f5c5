// The user runner: validate -> read the account -> decide -> act -> re-check. It uses only the
// request (no process globals), so a long-lived runner process can call it many times.
import fs from 'node:fs';
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import type { GroupEntry } from '../lib/accounts/database.js';
import { planMessage } from '../lib/accounts/plan.js';
import { decide, mismatches, type DesiredUser, type ResolvedGroup } from './decide.js';
import { description } from './description.js';
import { userProperties, type GroupSpec, type UserProperties } from './properties.js';
import { userProvider } from './providers.js';
import { allGroups, readUser } from './read.js';

export function userRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('user', description, 'a user', apply);
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = userProperties(request);
  const context = providerContext(request.env, request.log);
  let groups = await allGroups(context);
  const desired = resolve(props, groups, request);
  // A managed password is read by the provider where it reads hashes itself (pw), so it is chosen first then.
  const early = props.password !== undefined ? await userProvider(props.provider, context) : undefined;
  const readHash = early?.passwordHash?.bind(early);
  const read = async () => readUser(context, props.name, props.password !== undefined, groups, readHash);
  const current = await read();
  if (!current.exists && props.ensure === 'present' && !desired.group) {
    // useradd refuses to create a user whose name a group already has (USERGROUPS_ENAB): it joins it.
    const own = groups.find((g) => g.name === props.name);
    if (own) desired.group = { label: own.name, gid: own.gid };
  }

  const plan = decide(desired, current);
  // Chosen only when there is something to do, and asked in noop too whether it can do it.
  const provider = plan.changed ? (early ?? (await userProvider(props.provider, context))) : undefined;
  const refused = plan.action.kind === 'modify' ? provider?.refuses(plan.action.changes) : undefined;
  if (refused) throw new UserError(`user ${props.name}: cannot apply ${plan.summary}: ${refused}`);
  const warning = props.ensure === 'present' ? shellWarning(props.shell) : undefined;
  if (warning) request.log(`warning: ${warning}`);
  const message = planMessage(plan, request.noop) + (warning && plan.changed ? ` (warning: ${warning})` : '');
  if (request.noop || !provider) return { changed: plan.changed, message };

  const action = plan.action;
  if (action.kind === 'create') await provider.create(desired);
  else if (action.kind === 'modify' && current.exists) await provider.modify(desired, action.changes, current);
  else if (action.kind === 'remove') await provider.remove(props.name, action.removeHome);
  groups = await allGroups(context);
  const after = await read();
  const wrong = mismatches(desired, after);
  if (wrong.length > 0) throw new UserError(`user ${props.name} did not reach the desired state after ${plan.summary}: ${wrong.join('; ')}`);
  return { changed: true, message };
}

/**
 * The groups named, resolved: one that does not exist is an error, except in noop mode, where an
 * earlier resource of the same run may be the one that would create it (a log line says so).
 */
function resolve(props: UserProperties, groups: GroupEntry[], request: RunnerRequest<unknown>): DesiredUser {
  const missing: string[] = [];
  const group = props.group && resolveGroup(props.group, groups, missing);
  for (const name of props.ensure === 'present' ? props.groups ?? [] : []) if (!groups.some((g) => g.name === name)) missing.push(name);
  if (props.ensure === 'present' && missing.length > 0) {
    const problem = `unknown group ${missing.join(', ')} (getent group found no entry)`;
    if (!request.noop) throw new UserError(problem);
    request.log(`warning: ${problem}`);
  }
  const { group: _spec, ...rest } = props;
  return { ...rest, group };
}

function resolveGroup(spec: GroupSpec, groups: GroupEntry[], missing: string[]): ResolvedGroup {
  if (spec.kind === 'id') return { label: String(spec.id), gid: spec.id };
  const entry = groups.find((g) => g.name === spec.name);
  if (!entry) missing.push(spec.name);
  return { label: spec.name, gid: entry?.gid };
}

/**
 * Shells that refuse a login: never listed in /etc/shells (which lists login shells, so that a user
 * cannot chsh to one of these), and the right shell for a service account. No warning for them.
 */
const NO_LOGIN_SHELLS = ['/usr/sbin/nologin', '/sbin/nologin', '/bin/false', '/usr/bin/false'];

/** A login shell not listed in /etc/shells: allowed, but worth saying. */
function shellWarning(shell: string | undefined): string | undefined {
  if (shell === undefined || NO_LOGIN_SHELLS.includes(shell)) return undefined;
  let listed: string[];
  try {
    listed = fs.readFileSync('/etc/shells', 'utf8').split('\n').map((l) => l.trim());
  } catch {
    return undefined;
  }
  return listed.includes(shell) ? undefined : `shell ${shell} is not listed in /etc/shells`;
}
