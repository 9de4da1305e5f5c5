// Every command govern has, in the order of `govern --help`: its words (command-names.ts) and how
// to load it. A command's own module (its options and what it does, and all that it loads) is
// loaded only when the command runs or its help is asked for, so `govern --help` costs little more
// than starting Node.
import type { Command } from './command.js';
import { COMMAND_DESCRIPTIONS, type CommandDescription } from './command-names.js';

export interface CommandEntry extends CommandDescription {
  load(): Promise<Command>;
}

const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  run: async () => (await import('./commands/run.js')).runCommand,
  resource: async () => (await import('./commands/resource.js')).resourceCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  backups: async () => (await import('./commands/backups.js')).backupsCommand,
  pull: async () => (await import('./commands/pull.js')).pullCommand,
  facts: async () => (await import('./commands/facts.js')).factsCommand,
  render: async () => (await import('./commands/render.js')).renderCommand,
  graph: async () => (await import('./commands/graph.js')).graphCommand,
  data: async () => (await import('./commands/data.js')).dataCommand,
  modules: async () => (await import('./commands/modules.js')).modulesCommand,
  fleet: async () => (await import('./commands/fleet.js')).fleetCommand,
  listen: async () => (await import('./commands/listen.js')).listenCommand,
  secret: async () => (await import('./commands/secret.js')).secretCommand,
  plan: async () => (await import('./commands/plan.js')).planCommand,
  diff: async () => (await import('./commands/diff.js')).diffCommand,
  fmt: async () => (await import('./commands/fmt.js')).fmtCommand,
  check: async () => (await import('./commands/check.js')).checkCommand,
  test: async () => (await import('./commands/test.js')).testCommand,
  lsp: async () => (await import('./commands/lsp.js')).lspCommand,
  versioncmp: async () => (await import('./commands/versioncmp.js')).versioncmpCommand,
};

export const COMMANDS: readonly CommandEntry[] = COMMAND_DESCRIPTIONS.map((description) => {
  const load = LOADERS[description.name];
  if (!load) throw new Error(`no loader for command ${description.name}`);
  return { ...description, load };
});
