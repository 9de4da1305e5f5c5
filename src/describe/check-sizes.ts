// A value too long for a command line reaches a runner only through the persistent protocol
// (docs/runners.md, "Large values"): a resource with one, for a runner that does not speak it, is
// refused while planning, at the line of the key, rather than failing with E2BIG when applied.
import type { Problem } from '../shared/errors.js';
import { encodeArgs, MAX_ARGUMENT_BYTES, MAX_COMMAND_LINE_BYTES, tooLongArgument } from '../shared/protocol.js';
import { keyLocation, type Resource } from '../state/resource.js';
import type { KnownRunner } from './describe-runner.js';

export function checkArgumentSizes(resources: Resource[], runners: ReadonlyMap<string, KnownRunner>): Problem[] {
  const problems: Problem[] = [];
  for (const r of resources) {
    const runner = runners.get(r.type);
    if (!runner || runner.description?.persistent === true) continue;
    const long = tooLongArgument([r.name, ...encodeArgs(r.attrs)]);
    if (long === undefined) continue;
    const key = long.slice(0, Math.max(0, long.indexOf('=')));
    const size = `${(Buffer.byteLength(long) / 1024).toFixed(0)} KiB`;
    const limit = Buffer.byteLength(long) >= MAX_ARGUMENT_BYTES ? `${MAX_ARGUMENT_BYTES / 1024} KiB for one argument` : `${MAX_COMMAND_LINE_BYTES / 1024 / 1024} MiB for a whole command line`;
    problems.push({
      ...keyLocation(r, key || undefined),
      message:
        `${r.ref}: ${key || 'the name'} is ${size}, more than a command line can carry (${limit}); ` +
        `runner "${r.type}" (${runner.executable}) does not speak the persistent protocol, through which govern passes large values (see the runners documentation, "Large values")`,
    });
  }
  return problems;
}
