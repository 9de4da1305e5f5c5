// One process serving the built-in runners govern finds in its own runners directory, in persistent
// mode: govern starts it instead of a process per runner (src/apply/runner-host.ts), which saves a
// Node start for each runner after the first. Each runner's code is loaded at its first request.
import { hostMain, type RunnerDefinition } from '../kit/index.js';
import { HOST_RUNNERS_ENV, isHostedRunner, type HostedRunner } from '../registry.js';

/* eslint-disable @typescript-eslint/no-require-imports */
const load: Record<HostedRunner, () => RunnerDefinition> = {
  apt_repository: () => (require('../apt_repository/runner.js') as typeof import('../apt_repository/runner.js')).aptRepositoryRunner() as RunnerDefinition,
  archive: () => (require('../archive/runner.js') as typeof import('../archive/runner.js')).archiveRunner() as RunnerDefinition,
  authorized_key: () => (require('../authorized_key/runner.js') as typeof import('../authorized_key/runner.js')).authorizedKeyRunner() as RunnerDefinition,
  block: () => (require('../block/runner.js') as typeof import('../block/runner.js')).blockRunner() as RunnerDefinition,
  cron: () => (require('../cron/runner.js') as typeof import('../cron/runner.js')).cronRunner() as RunnerDefinition,
  dnf_repository: () => (require('../dnf_repository/runner.js') as typeof import('../dnf_repository/runner.js')).dnfRepositoryRunner() as RunnerDefinition,
  download: () => (require('../download/runner.js') as typeof import('../download/runner.js')).downloadRunner() as RunnerDefinition,
  exec: () => (require('../exec/runner.js') as typeof import('../exec/runner.js')).execRunner as RunnerDefinition,
  file: () => (require('../file/runner.js') as typeof import('../file/runner.js')).fileRunner() as RunnerDefinition,
  git: () => (require('../git/runner.js') as typeof import('../git/runner.js')).gitRunner() as RunnerDefinition,
  group: () => (require('../group/runner.js') as typeof import('../group/runner.js')).groupRunner() as RunnerDefinition,
  hostname: () => (require('../hostname/runner.js') as typeof import('../hostname/runner.js')).hostnameRunner() as RunnerDefinition,
  ini: () => (require('../ini/runner.js') as typeof import('../ini/runner.js')).iniRunner() as RunnerDefinition,
  json: () => (require('../json/runner.js') as typeof import('../json/runner.js')).jsonRunner() as RunnerDefinition,
  kernel_module: () => (require('../kernel_module/runner.js') as typeof import('../kernel_module/runner.js')).kernelModuleRunner() as RunnerDefinition,
  line: () => (require('../line/runner.js') as typeof import('../line/runner.js')).lineRunner() as RunnerDefinition,
  mount: () => (require('../mount/runner.js') as typeof import('../mount/runner.js')).mountRunner() as RunnerDefinition,
  pkg: () => (require('../pkg/runner.js') as typeof import('../pkg/runner.js')).pkgRunner as RunnerDefinition,
  service: () => (require('../service/runner.js') as typeof import('../service/runner.js')).serviceRunner() as RunnerDefinition,
  sysctl: () => (require('../sysctl/runner.js') as typeof import('../sysctl/runner.js')).sysctlRunner() as RunnerDefinition,
  toml: () => (require('../toml/runner.js') as typeof import('../toml/runner.js')).tomlRunner() as RunnerDefinition,
  unit: () => (require('../unit/runner.js') as typeof import('../unit/runner.js')).unitRunner() as RunnerDefinition,
  user: () => (require('../user/runner.js') as typeof import('../user/runner.js')).userRunner() as RunnerDefinition,
  yaml: () => (require('../yaml/runner.js') as typeof import('../yaml/runner.js')).yamlRunner() as RunnerDefinition,
};

hostMain(
  (name) => (isHostedRunner(name) ? load[name]() : undefined),
  (process.env[HOST_RUNNERS_ENV] ?? '').split(',').filter(isHostedRunner),
);
