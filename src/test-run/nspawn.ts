// `govern test --driver nspawn`: the sandbox as a container booted by systemd-nspawn, for trees of
// systemd units. Where it cannot boot one, why, for the exit 2 of a sandbox that could not be made
// (docs/test.md, "Services").
import fs from 'node:fs';
import { onPath } from './on-path.js';

export type Driver = 'unshare' | 'nspawn';

/** Why the nspawn driver cannot run here; it always has a reason, since booting is not built (see docs/test.md). */
export function nspawnProblem(env: NodeJS.ProcessEnv): string {
  if (onPath('systemd-nspawn', env) === undefined) return "--driver nspawn: systemd-nspawn not found on PATH (Debian's systemd-container package)";
  // nspawn registers the container with systemd-machined and puts it in a cgroup of the host's systemd.
  if (!fs.existsSync('/run/systemd/system')) return "--driver nspawn: systemd-nspawn boots a container only on a host whose init is systemd, and this host's is not (no /run/systemd/system)";
  return '--driver nspawn: booting a container is not built in this version of govern test (no host of its test suite runs systemd as init); use the unshare driver, where services that need systemd are reported as could only noop';
}
