// `govern diff REV1 REV2`: the tree planned at two commits (read with git archive into a temporary
// directory, never checked out) for each host, and what changes between the two, host by host.
import fs from 'node:fs';
import path from 'node:path';
import { compareHost, groupChanges, type ChangeGroup, type ResourceChange } from '../preview/compare.js';
import { healthAsResource } from '../preview/health-view.js';
import { extractCommit, withTempDir, type Repository } from '../preview/revision.js';
import { groupNotes, secretNotes, type SecretNote } from '../preview/secret-changes.js';
import { UserError } from '../shared/errors.js';
import { planHost, type HostPreview } from './hosts.js';
import { hostSettings, type PreviewHosts } from './preview-hosts.js';
import type { PlanSettings } from './settings.js';

export interface RevisionsDiff {
  hosts: string[];
  /** Each host's changes; a host whose planning failed at either revision has none. */
  byHost: Map<string, ResourceChange[]>;
  /** Identical changes on several hosts, once. */
  groups: ChangeGroup[];
  /** `HOST: at REV: problem`, for every problem of planning. */
  errors: string[];
  secrets: SecretNote[];
}

/** `commits` are resolved, `revs` as the user wrote them (for messages); `settings` plans a tree. */
export async function diffRevisions(
  repo: Repository,
  commits: readonly [string, string],
  revs: readonly [string, string],
  settings: (tree: string) => PlanSettings,
  hosts: PreviewHosts | undefined,
): Promise<RevisionsDiff> {
  const result = await withTempDir(async (dir) => {
    const trees = [await extractCommit(repo, commits[0], path.join(dir, 'a')), await extractCommit(repo, commits[1], path.join(dir, 'b'))];
    trees.forEach((tree, i) => {
      if (!fs.existsSync(tree)) throw new UserError(`${repo.prefix || '.'}: not in the tree at ${revs[i]}`);
    });
    const [before, after] = [hostSettings(() => settings(trees[0]), hosts), hostSettings(() => settings(trees[1]), hosts)];
    const byHost = new Map<string, ResourceChange[]>();
    const notes = new Map<string, string[]>();
    const errors: string[] = [];
    for (let i = 0; i < before.length; i++) {
      const plans: HostPreview[] = [await planHost(before[i].settings, before[i].host), await planHost(after[i].settings, after[i].host)];
      plans.forEach((p, side) => (p.errors ?? []).forEach((e) => errors.push(`${p.host}: at ${revs[side]}: ${e}`)));
      if (plans[0].resources && plans[1].resources) {
        // Health checks compared as resources of their own, `health "NAME"`: added, removed or changed.
        const [a, b] = plans.map((p) => (p.health ?? []).map(healthAsResource));
        byHost.set(before[i].host, [...compareHost(plans[0].resources, plans[1].resources, revs), ...compareHost(a, b, revs)]);
      }
      if (plans[0].secrets && plans[1].secrets) notes.set(before[i].host, secretNotes(before[i].host, plans[0].secrets, plans[1].secrets));
    }
    return { hosts: before.map((b) => b.host), byHost, errors, secrets: groupNotes(notes) };
  });
  return { ...result, groups: groupChanges(result.byHost) };
}
