// Every command govern has, with as much of each as `govern --help` prints and finding a command
// needs: names and words only, so that a command's module can take its own from here (`described`)
// without importing the index that loads it (command-index.ts).
import type { Command } from './command.js';

export type CommandDescription = Pick<Command, 'name' | 'usage' | 'summary' | 'otherNames'>;

export const COMMAND_DESCRIPTIONS: readonly CommandDescription[] = [
  {
    name: 'run',
    usage: 'govern run [OPTIONS] [PATH]',
    summary: 'apply a state file, or every *.hcl under a directory',
    otherNames: ['apply'],
  },
  {
    name: 'resource',
    usage: 'govern resource [OPTIONS] RUNNER NAME [KEY=VALUE...]',
    summary: 'apply one resource given on the command line, as a run would, without a state file',
  },
  {
    name: 'status',
    usage: 'govern status [OPTIONS]',
    summary: 'one line about the last run, with the exit codes of a monitoring plugin',
  },
  {
    name: 'backups',
    usage: 'govern backups [OPTIONS] [list] [PATH] | restore PATH',
    summary: 'list the copies backup = true kept of replaced files, or restore one',
  },
  {
    name: 'pull',
    usage: 'govern pull [OPTIONS] REPO [DIR]',
    summary: 'bring a state tree to the newest commit of a git repository, atomically',
  },
  {
    name: 'facts',
    usage: 'govern facts [OPTIONS] [NAME...]',
    summary: 'print facts: name<TAB>value, sorted by name',
  },
  {
    name: 'render',
    usage: 'govern render [OPTIONS] TEMPLATE',
    summary: 'render a template (a path, or a name in the templates directories) to stdout',
  },
  {
    name: 'graph',
    usage: 'govern graph [OPTIONS] [PATH]',
    summary: 'print the resource graph of a state tree in Graphviz DOT (numbered in apply order)',
  },
  {
    name: 'data',
    usage: 'govern data [OPTIONS] [KEY...] [PATH]',
    summary: "print the data this host sees from a tree's hierarchy (hierarchy.hcl, data/); --explain shows each search",
  },
  {
    name: 'modules',
    usage: 'govern modules [OPTIONS] [NAME | fetch | update | outdated] [PATH]',
    summary: "list a tree's modules and where one is instantiated; fetch, update, outdated: modules from git (modules.hcl)",
  },
  {
    name: 'fleet',
    usage: 'govern fleet [OPTIONS] [run | history HOST | key FILE]',
    summary: "every host's last run from the fleet's NATS server, as a table and one monitoring check",
  },
  {
    name: 'listen',
    usage: 'govern listen [OPTIONS]',
    summary: 'wait for govern fleet run to ask this host to run, and start its run (govern-listen.service)',
  },
  {
    name: 'secret',
    usage: 'govern secret set|show|recipients|rekey [OPTIONS] ...',
    summary: "encrypt, read and re-encrypt the tree's secret data values (recipients.hcl)",
  },
  {
    name: 'plan',
    usage: 'govern plan [OPTIONS] [PATH]',
    summary: 'print what a tree asks of a host (from its facts snapshot), without touching any host',
  },
  {
    name: 'diff',
    usage: 'govern diff [OPTIONS] REV1 REV2 [PATH]',
    summary: 'what a commit changes on each host: the tree planned at two git revisions, compared',
  },
  {
    name: 'fmt',
    usage: 'govern fmt [OPTIONS] [PATH...]',
    summary: "lay out a tree's HCL files in the canonical layout (--check for CI: exit 1 when a file would change)",
  },
  {
    name: 'check',
    usage: 'govern check [OPTIONS] [PATH]',
    summary: 'every problem of a tree at once, without the host (--format text|json|sarif|junit for CI)',
  },
  {
    name: 'test',
    usage: 'govern test [OPTIONS] [PATH]',
    summary: 'run a tree twice in a throwaway sandbox of this host, with a noop first and its checks after: idempotence, noop fidelity',
  },
  {
    name: 'lsp',
    usage: 'govern lsp [OPTIONS]',
    summary: 'a language server for editors over stdio: diagnostics, completion, hover, definition, formatting',
  },
  {
    name: 'versioncmp',
    usage: 'govern versioncmp [OPTIONS] A B',
    summary: 'compare two versions: prints -1 (A older), 0 (same) or 1 (A newer)',
  },
];

/** A command's name, usage, summary and other names, for its module's definition. */
export function described(name: string): CommandDescription {
  const entry = COMMAND_DESCRIPTIONS.find((c) => c.name === name);
  if (!entry) throw new Error(`no command ${name} in the command index`);
  return entry;
}
