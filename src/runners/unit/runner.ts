// The unit runner: read -> decide -> write or remove -> daemon-reload pending. It uses only the
// request (no process globals), so a long-lived runner process can call it many times.
import fs from 'node:fs';
import path from 'node:path';
import { providerContext } from '../../shared/command-runner.js';
import { UserError } from '../../shared/errors.js';
import type { RunnerResult } from '../../shared/protocol.js';
import type { RunnerDefinition, RunnerRequest, Values } from '../kit/index.js';
import { asUserError } from '../../shared/errors.js';
import { withSbinPath } from '../../shared/find-program.js';
import { applyWholeFile, readWholeFile, wholeFileDiff } from '../lib/whole-file/provider-posix.js';
import { decideUnit, unitMessage } from './decide.js';
import { description } from './description.js';
import { unitDirectory } from '../lib/systemd/unit-directory.js';
import { unitProperties } from './properties.js';
import { systemdUnitProvider, type UnitProvider } from './provider-systemd.js';

/** A unit file is read by all (systemd's own units are 0644) and written by its owner. */
export const UNIT_FILE_MODE = 0o644;

export function unitRunner(): RunnerDefinition<typeof description> {
  return {
    name: 'unit',
    description,
    run(request) {
      const provider = systemdUnitProvider(providerContext(withSbinPath(request.env), request.log));
      const run = request.signal !== undefined ? refresh(request, provider) : apply(request, provider);
      return run.catch((e: unknown) => Promise.reject(asUserError(e)));
    },
  };
}

async function apply(request: RunnerRequest<Values<typeof description>>, provider: UnitProvider): Promise<RunnerResult> {
  const props = unitProperties(request);
  const file = path.join(unitDirectory(props.scope, request.env), props.name);
  const content = props.ensure === 'absent' ? undefined : props.source !== undefined ? readSource(props.source) : Buffer.from(props.content!, 'utf8');
  const desired = { path: file, ensure: props.ensure, content, mode: UNIT_FILE_MODE, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
  const current = await readWholeFile(file);
  const plan = decideUnit(desired, current);
  const diffText = plan.contentChanged && props.showDiff ? wholeFileDiff(file, current, content, request.log) : undefined;
  const diff = diffText !== undefined ? { diff: diffText } : {};
  if (request.noop && plan.changed) provider.wouldChange(request.env.GOVERN_RUN_DIR, props.scope);
  if (request.noop || !plan.changed) return { changed: plan.changed, message: unitMessage(plan, request.noop), ...diff };

  await applyWholeFile(desired, plan, current);
  if (plan.action === 'remove') removeEmptyDropInDirectory(file);
  const reload = await provider.changed(request.env.GOVERN_RUN_DIR, props.scope, `unit:${request.name}`);
  return { changed: true, message: unitMessage(plan, false, reload), ...diff };
}

/**
 * A refresh runs the daemon-reload a unit of its scope left pending, if no service ran it yet: govern
 * sends one at the end of a run whose changed units no service followed (docs/unit.md).
 */
async function refresh(request: RunnerRequest<Values<typeof description>>, provider: UnitProvider): Promise<RunnerResult> {
  const scope = request.values.scope;
  const reloaded = await provider.reloadIfPending(request.env.GOVERN_RUN_DIR, scope);
  return reloaded ? { changed: true, message: 'daemon-reload done (no service of its scope ran it in this run)' } : { changed: false, message: 'refresh: no daemon-reload pending' };
}

function readSource(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new UserError(`cannot read source ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The last drop-in of `app.service.d` removed: the directory goes too, as systemctl revert leaves none. */
function removeEmptyDropInDirectory(file: string): void {
  const dir = path.dirname(file);
  if (!dir.endsWith('.d')) return;
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty, or already gone: either is fine
  }
}
