// The built-in runners, named once (docs/adding-a-runner.md): the bundle (scripts/bundle.js), the
// package's description (packaging/runners-description), the docs (scripts/update-runner-docs and the
// docs test), the tests and the process that serves them together (src/runners/host/main.ts) read this
// list. Names only, apart from their code, so that govern's core knows them without loading them.
export const BUILT_IN_RUNNERS = ['apt_repository', 'archive', 'authorized_key', 'block', 'cron', 'dnf_repository', 'download', 'exec', 'file', 'git', 'group', 'hostname', 'ini', 'json', 'kernel_module', 'line', 'mount', 'pkg', 'service', 'sysctl', 'toml', 'unit', 'user', 'yaml'] as const;

/** Every built-in runner can be served by the one host process in persistent mode. */
export const HOSTED_RUNNERS = BUILT_IN_RUNNERS;

export type HostedRunner = (typeof HOSTED_RUNNERS)[number];

/** Set in the host's environment: the runners the run is expected to use, prepared when it starts. */
export const HOST_RUNNERS_ENV = 'GOVERN_HOST_RUNNERS';

export function isHostedRunner(name: string): name is HostedRunner {
  return (HOSTED_RUNNERS as readonly string[]).includes(name);
}
