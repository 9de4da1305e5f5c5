// Every command govern has, with as much of each as `govern --help` prints and finding a command
// needs. A command's own module (its options and what it does, and all that it loads) is loaded
// only when the command runs or its help is asked for, so `govern --help` costs little more than
// starting Node. Each module takes its name, usage and summary from here (`described`).
import type { Command } from './command.js';

export interface CommandEntry {
  name: string;
  usage: string;
  summary: string;
  /** What other tools call this command (`apply` for run): suggested, never accepted. */
  otherNames?: readonly string[];
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'run',
    usage: 'govern run [OPTIONS] [PATH]',
    summary: 'apply a state file, or every *.hcl under a directory',
    otherNames: ['apply'],
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  {
    name: 'resource',
    usage: 'govern resource [OPTIONS] RUNNER NAME [KEY=VALUE...]',
    summary: 'apply one resource given on the command line, as a run would, without a state file',
    load: async () => (await import('./commands/resource.js')).resourceCommand,
  },
  {
    name: 'status',
    usage: 'govern status [OPTIONS]',
    summary: 'one line about the last run, with the exit codes of a monitoring plugin',
    load: async () => (await import('./commands/status.js')).statusCommand,
  },
  {
    name: 'pull',
    usage: 'govern pull [OPTIONS] REPO [DIR]',
    summary: 'bring a state tree to the newest commit of a git repository, atomically',
    load: async () => (await import('./commands/pull.js')).pullCommand,
  },
  {
    name: 'facts',
    usage: 'govern facts [OPTIONS] [NAME...]',
    summary: 'print facts: name<TAB>value, sorted by name',
    load: async () => (await import('./commands/facts.js')).factsCommand,
  },
  {
    name: 'render',
    usage: 'govern render [OPTIONS] TEMPLATE',
    summary: 'render a template (a path, or a name in the templates directories) to stdout',
    load: async () => (await import('./commands/render.js')).renderCommand,
  },
  {
    name: 'graph',
    usage: 'govern graph [OPTIONS] [PATH]',
    summary: 'print the resource graph of a state tree in Graphviz DOT (numbered in apply order)',
    load: async () => (await import('./commands/graph.js')).graphCommand,
  },
  {
    name: 'data',
    usage: 'govern data [OPTIONS] [KEY...] [PATH]',
    summary: "print the data this host sees from a tree's hierarchy (hierarchy.hcl, data/); --explain shows each search",
    load: async () => (await import('./commands/data.js')).dataCommand,
  },
  {
    name: 'modules',
    usage: 'govern modules [OPTIONS] [NAME] [PATH]',
    summary: "list a tree's modules and their parameters; with NAME, where it is instantiated",
    load: async () => (await import('./commands/modules.js')).modulesCommand,
  },
  {
    name: 'fleet',
    usage: 'govern fleet [OPTIONS] [run | key FILE]',
    summary: "every host's last run from the fleet's NATS server, as a table and one monitoring check",
    load: async () => (await import('./commands/fleet.js')).fleetCommand,
  },
  {
    name: 'listen',
    usage: 'govern listen [OPTIONS]',
    summary: 'wait for govern fleet run to ask this host to run, and start its run (govern-listen.service)',
    load: async () => (await import('./commands/listen.js')).listenCommand,
  },
  {
    name: 'secret',
    usage: 'govern secret set|show|recipients|rekey [OPTIONS] ...',
    summary: "encrypt, read and re-encrypt the tree's secret data values (recipients.hcl)",
    load: async () => (await import('./commands/secret.js')).secretCommand,
  },
  {
    name: 'plan',
    usage: 'govern plan [OPTIONS] [PATH]',
    summary: 'print what a tree asks of a host (from its facts snapshot), without touching any host',
    load: async () => (await import('./commands/plan.js')).planCommand,
  },
  {
    name: 'diff',
    usage: 'govern diff [OPTIONS] REV1 REV2 [PATH]',
    summary: 'what a commit changes on each host: the tree planned at two git revisions, compared',
    load: async () => (await import('./commands/diff.js')).diffCommand,
  },
  {
    name: 'versioncmp',
    usage: 'govern versioncmp [OPTIONS] A B',
    summary: 'compare two versions: prints -1 (A older), 0 (same) or 1 (A newer)',
    load: async () => (await import('./commands/versioncmp.js')).versioncmpCommand,
  },
];

/** A command's name, usage, summary and other names, for its module's definition. */
export function described(name: string): Pick<Command, 'name' | 'usage' | 'summary' | 'otherNames'> {
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) throw new Error(`no command ${name} in the command index`);
  const { load: _load, ...description } = entry;
  return description;
}
