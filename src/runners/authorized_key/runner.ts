// The authorized_key runner: the user's home from getent -> ~/.ssh and authorized_keys read ->
// decide -> write (atomically, owned by the user) -> re-check. It uses only the request (no process
// globals), so a long-lived runner process can call it many times.
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import { applyOnlyRunner } from '../kit/apply-only.js';
import { pendingNote, pendingResource } from '../kit/noop-pending.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { symlinkError } from '../lib/file/errors.js';
import { wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { lockingTargets } from '../lib/target-lock.js';
import { decideKeys, keyOfLine, keysMessage } from './decide.js';
import { description, KEY_TYPES } from './description.js';
import { authorizedKeyProperties } from './properties.js';
import { posixKeysProvider } from './provider-posix.js';
import { homeProblem, strictAttributes } from './strict-modes.js';

export function authorizedKeyRunner(): RunnerDefinition<typeof description> {
  return applyOnlyRunner('authorized_key', description, 'a key', lockingTargets(keysFile, apply));
}

/** The user's authorized_keys, which every key of that user rewrites: none for an unknown user (nothing is written). */
async function keysFile(request: RunnerRequest<Values<typeof description>>): Promise<string[]> {
  const user = await posixKeysProvider(providerContext(request.env, request.log)).user(authorizedKeyProperties(request).user);
  return user ? [path.join(user.home, '.ssh', 'authorized_keys')] : [];
}

async function apply(request: RunnerRequest<Values<typeof description>>): Promise<RunnerResult> {
  const props = authorizedKeyProperties(request);
  const provider = posixKeysProvider(providerContext(request.env, request.log));
  const user = await provider.user(props.user);
  if (!user) {
    if (props.ensure === 'absent') return { changed: false, message: `user ${props.user} does not exist: key absent` };
    // In noop, a user an earlier resource would create has no keys yet: the key would be added.
    const creator = pendingResource(request, `user:${props.user}`);
    if (!creator) throw new UserError(`unknown user "${props.user}" (getent passwd ${props.user} found no entry)`);
    const plan = decideKeys({ ensure: props.ensure, key: props.key, line: props.line, exclusive: props.exclusive }, []);
    const note = pendingNote([{ what: `user "${props.user}"`, ref: creator }]);
    return { changed: plan.changed, message: `${plan.changed ? plan.parts.map((p) => `Would have ${p}`).join('; ') : keysMessage(plan, true)} (${note})` };
  }
  const sshDir = path.join(user.home, '.ssh');
  const file = path.join(sshDir, 'authorized_keys');
  const home = await provider.status(user.home);
  const warning = homeProblem(user.home, home.type === 'directory' ? home.attrs : undefined);
  if (warning) request.log(`warning: ${warning}`);

  const dir = await provider.status(sshDir);
  if (dir.type === 'symlink') throw symlinkError(sshDir, dir.target);
  if (dir.type === 'file' || dir.type === 'other') throw new UserError(`${sshDir} is not a directory`);
  const current = dir.type === 'absent' ? ({ type: 'absent' } as const) : await provider.keys(file);
  if (current.type === 'symlink') throw symlinkError(file, current.target);
  if (current.type === 'other') throw new UserError(`${file} is ${current.kind}, not a regular file`);
  const text = current.type === 'file' ? current.content.toString('utf8') : '';
  const lines = text.split('\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
  const plan = decideKeys({ ensure: props.ensure, key: props.key, line: props.line, exclusive: props.exclusive }, lines.map((l) => ({ text: l, key: keyOfLine(l, KEY_TYPES) })));

  // StrictModes: the directory and the file the user's, and writable by no one else.
  const owner = { uid: user.uid, gid: user.gid };
  const dirFix = dir.type === 'directory' && props.ensure === 'present' ? strictAttributes(dir.attrs, owner) : { changes: [] };
  const fileFix = current.type === 'file' && props.ensure === 'present' ? strictAttributes(current, owner) : { changes: [] };
  const changes = [
    ...(plan.changed ? plan.parts : []),
    ...(dirFix.changes.length > 0 ? [`changed ${sshDir} (${dirFix.changes.join(', ')})`] : []),
    ...(fileFix.changes.length > 0 ? [`changed ${file} (${fileFix.changes.join(', ')})`] : []),
  ];
  const changed = changes.length > 0;
  const message = changed ? changes.map((p) => (request.noop ? `Would have ${p}` : p)).join('; ') : keysMessage(plan, false);
  const content = plan.lines ? Buffer.from(plan.lines.map((l) => `${l}\n`).join('')) : undefined;
  const diffText = content && current.type === 'file' ? wholeFileDiff(file, current, content, request.log, fileFix.set?.mode) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop || !changed) return { changed, message, ...diff };

  if (dir.type === 'absent') await provider.createDirectory(sshDir, { ...owner, mode: 0o700 });
  else if (dirFix.set) await provider.updateDirectory(sshDir, dirFix.set);
  const attrs = current.type === 'file' ? (fileFix.set ?? { uid: current.uid, gid: current.gid, mode: current.mode }) : { ...owner, mode: 0o600 };
  if (content) await provider.store(file, content, attrs, current.type === 'file');
  else if (fileFix.set) await provider.store(file, 'keep-current', fileFix.set, true);
  return { changed: true, message, ...diff };
}
