// The built-in runners one process can serve together in persistent mode (src/runners/host/main.ts):
// named here, apart from their code, so that govern's core knows them without loading them.
export const HOSTED_RUNNERS = ['apt_repository', 'archive', 'authorized_key', 'cron', 'dnf_repository', 'exec', 'file', 'git', 'group', 'kernel_module', 'line', 'mount', 'pkg', 'service', 'sysctl', 'unit', 'user'] as const;

export type HostedRunner = (typeof HOSTED_RUNNERS)[number];

/** Set in the host's environment: the runners the run is expected to use, prepared when it starts. */
export const HOST_RUNNERS_ENV = 'GOVERN_HOST_RUNNERS';

export function isHostedRunner(name: string): name is HostedRunner {
  return (HOSTED_RUNNERS as readonly string[]).includes(name);
}
