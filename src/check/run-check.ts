// What `govern check` prints and exits with, in the format asked for: 0 when the tree has no
// problem, 1 when it has (every one is in the report). A check that cannot run at all (no such tree,
// an unreadable snapshot) is an error of the command, exit 2, so CI tells a broken job from a broken tree.
import type { Snapshot } from '../facts/snapshot.js';
import type { PlanSettings } from '../plan/settings.js';
import { checkTree } from './check-tree.js';
import { checkJson, checkText } from './report-text.js';
import { checkJunit } from './report-junit.js';
import { checkSarif } from './report-sarif.js';

export const CHECK_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

export async function runCheck(settings: PlanSettings, snapshots: Snapshot[] | undefined, format: CheckFormat): Promise<{ text: string; exitCode: number }> {
  const report = await checkTree(settings, snapshots);
  const write = { text: checkText, json: checkJson, sarif: checkSarif, junit: checkJunit }[format];
  return { text: write(report), exitCode: report.problems.length > 0 ? 1 : 0 };
}
