// `govern diff REV1 REV2 [--facts DIR] [PATH]`: what a change to the state tree's repository does,
// host by host, planned from each host's facts snapshot (a file, or what the host published to the
// fleet's inventory) at both revisions (read with git archive, no checkout). Exit 0: no change,
// 2: changes, 1: an error (planning failed for a host at either).
import { formatGroups } from '../../preview/diff-text.js';
import { formatNotes } from '../../preview/secret-changes.js';
import { repositoryOf, resolveCommit } from '../../preview/revision.js';
import { defaultStateTree } from '../../config/paths.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, printError } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { diffRevisions } from '../../plan/revisions.js';
import { planningOptions } from '../planning-options.js';
import { hostsOf, previewSettings } from '../preview-options.js';

const options = optionTable([
  { name: 'facts', kind: 'text', placeholder: 'FILE|DIR', help: "plan for each host whose govern facts --json snapshot is HOST.json in DIR (or for the one FILE); without it, every host of the fleet's inventory (--fleet-url), else this host" },
  { name: 'json', kind: 'flag', help: 'print the changes as a JSON document' },
  ...planningOptions,
  ...helpOptions,
]);

export const diffCommand = defineCommand({
  ...described('diff'),
  details:
    `PATH is the state tree in a git working tree (without PATH, the one govern run applies, ${defaultStateTree()});\n` +
    'each revision is read\n' +
    'from git, never checked out. Identical changes on several hosts are shown once, with their hosts.\n' +
    'File contents are shown as unified diffs, except hidden ones. Exit status: 0 no change, 2 changes,\n' +
    '1 an error (planning failed for a host at either revision: every problem is printed).',
  options,
  async run(o, operands) {
    if (operands.length < 2 || operands.length > 3) throw new UserError(`REV1 and REV2 are needed, then at most a PATH (usage: ${this.usage})`);
    // The default tree is the one every planning command takes (README, "Commands").
    const [rev1, rev2, given = defaultStateTree()] = operands;
    const repo = await repositoryOf(given).catch((e: unknown) => {
      if (operands.length === 3 || !(e instanceof UserError)) throw e;
      throw new UserError(`${e.message} (without PATH, govern diff plans the default state tree, as govern run does: in a checkout, give the tree, e.g. govern diff ${rev1} ${rev2} .)`);
    });
    const [from, to] = [await resolveCommit(repo, rev1), await resolveCommit(repo, rev2)];
    const hosts = await hostsOf(o, undefined, true);
    const result = await diffRevisions(repo, [from, to], [rev1, rev2], (tree) => previewSettings(tree, o), hosts);
    const groups = result.groups;
    if (o.json) await out(JSON.stringify({ from, to, hosts: result.hosts, changes: groups, secrets: result.secrets, errors: result.errors }, null, 2) + '\n');
    else await out(result.secrets.length > 0 && groups.length === 0 ? formatNotes(result.secrets) : formatGroups(groups, result.byHost.size) + formatNotes(result.secrets));
    for (const e of result.errors) printError(new UserError(e));
    return result.errors.length > 0 ? 1 : groups.length > 0 || result.secrets.length > 0 ? 2 : 0;
  },
});
