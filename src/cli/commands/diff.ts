// `govern diff REV1 REV2 [--facts DIR] [PATH]`: what a change to the state tree's repository does,
// host by host, planned from each host's facts snapshot (a file, or what the host published to the
// fleet's inventory) at both revisions (read with git archive, no checkout). Exit 0: no change,
// 2: changes, 1: an error (planning failed for a host at either).
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { compareHost, groupChanges, type ResourceChange } from '../../preview/compare.js';
import { formatGroups } from '../../preview/diff-text.js';
import { formatNotes, groupNotes, secretNotes } from '../../preview/secret-changes.js';
import { extractCommit, repositoryOf, resolveCommit, withTempDir } from '../../preview/revision.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out, printError } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { planHost, snapshotSettings, type HostPreview } from '../../plan/hosts.js';
import type { PlanSettings } from '../../plan/settings.js';
import { planningOptions } from '../planning-options.js';
import { previewHosts, previewSettings } from '../preview-options.js';

const options = optionTable([
  { name: 'facts', kind: 'text', placeholder: 'FILE|DIR', help: "plan for each host whose govern facts --json snapshot is HOST.json in DIR (or for the one FILE); without it, every host of the fleet's inventory (--fleet-url), else this host" },
  { name: 'json', kind: 'flag', help: 'print the changes as a JSON document' },
  ...planningOptions,
  ...helpOptions,
]);

export const diffCommand = defineCommand({
  ...described('diff'),
  details:
    'PATH (default: the current directory) is the state tree in a git working tree; each revision is read\n' +
    'from git, never checked out. Identical changes on several hosts are shown once, with their hosts.\n' +
    'File contents are shown as unified diffs, except hidden ones. Exit status: 0 no change, 2 changes,\n' +
    '1 an error (planning failed for a host at either revision: every problem is printed).',
  options,
  async run(o, operands) {
    if (operands.length < 2 || operands.length > 3) throw new UserError(`REV1 and REV2 are needed, then at most a PATH (usage: ${this.usage})`);
    const [rev1, rev2, given = '.'] = operands;
    const repo = await repositoryOf(given);
    const [from, to] = [await resolveCommit(repo, rev1), await resolveCommit(repo, rev2)];
    const hosts = await previewHosts(o, undefined, true);
    const result = await withTempDir(async (dir) => {
      const trees = [await extractCommit(repo, from, path.join(dir, 'a')), await extractCommit(repo, to, path.join(dir, 'b'))];
      trees.forEach((tree, i) => {
        if (!fs.existsSync(tree)) throw new UserError(`${repo.prefix || '.'}: not in the tree at ${[rev1, rev2][i]}`);
      });
      const inputs = (tree: string): { host: string; facts?: string; inputs: PlanSettings }[] =>
        hosts
          ? hosts.snapshots.map((s) => ({ host: s.host, facts: s.source, inputs: snapshotSettings(previewSettings(tree, o), s, hosts.others) }))
          : [{ host: os.hostname(), inputs: previewSettings(tree, o) }];
      const [before, after] = [inputs(trees[0]), inputs(trees[1])];
      const byHost = new Map<string, ResourceChange[]>();
      const notes = new Map<string, string[]>();
      const errors: string[] = [];
      for (let i = 0; i < before.length; i++) {
        const plans: HostPreview[] = [await planHost(before[i].inputs, before[i].host), await planHost(after[i].inputs, after[i].host)];
        plans.forEach((p, side) => (p.errors ?? []).forEach((e) => errors.push(`${p.host}: at ${[rev1, rev2][side]}: ${e}`)));
        if (plans[0].resources && plans[1].resources) byHost.set(before[i].host, compareHost(plans[0].resources, plans[1].resources, [rev1, rev2]));
        if (plans[0].secrets && plans[1].secrets) notes.set(before[i].host, secretNotes(before[i].host, plans[0].secrets, plans[1].secrets));
      }
      return { hosts: before.map((b) => b.host), byHost, errors, secrets: groupNotes(notes) };
    });
    const groups = groupChanges(result.byHost);
    if (o.json) await out(JSON.stringify({ from, to, hosts: result.hosts, changes: groups, secrets: result.secrets, errors: result.errors }, null, 2) + '\n');
    else await out(result.secrets.length > 0 && groups.length === 0 ? formatNotes(result.secrets) : formatGroups(groups, result.byHost.size) + formatNotes(result.secrets));
    for (const e of result.errors) printError(new UserError(e));
    return result.errors.length > 0 ? 1 : groups.length > 0 || result.secrets.length > 0 ? 2 : 0;
  },
});
