// `govern plan [--facts FILE|DIR] [--host NAME] [--json] [PATH]`: what a tree asks of a host, planned
// from the host's facts without the host: no runner is asked about any machine's state.
import { defaultStateTree } from '../../config/paths.js';
import { formatHostPreview } from '../../preview/plan-text.js';
import { pulledTree } from '../../pull/store.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand, treeOperand } from '../command.js';
import { out, printError } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { explainForHost } from '../../plan/explain.js';
import { planPreviews } from '../../plan/preview-hosts.js';
import { planningOptions } from '../planning-options.js';
import { hostsOf, previewSettings } from '../preview-options.js';

export const planOptions = optionTable([
  { name: 'facts', kind: 'text', placeholder: 'FILE|DIR', help: 'plan from a govern facts --json snapshot, or from each HOST.json of a directory' },
  { name: 'host', kind: 'text', placeholder: 'NAME', help: "plan only for the host whose snapshot is NAME.json in --facts DIR; without --facts, from the facts NAME published to the fleet's inventory (--fleet-url)" },
  { name: 'json', kind: 'flag', help: 'print the plans as a JSON document' },
  { name: 'explain', kind: 'text', placeholder: 'RREF[/KEY]', help: 'where each value of one resource (or one of its keys) comes from: state file and line, template, module parameters, data levels, facts' },
]);

export const planCommand = defineCommand({
  ...described('plan'),
  details:
    "Every resource in apply order with its final attributes (hidden values as <sensitive>), where it is\n" +
    "declared, its tags and ordering; then the tree's health checks (name, kind, where, keys). Nothing is\n" +
    "applied and no runner is asked about the machine; runners\n" +
    "describe themselves, so keys and values are checked as govern run checks them. Every problem is reported,\n" +
    "for every host, and govern exits 1 if planning failed for any. Without --facts, the facts --host NAME\n" +
    "published to the fleet's inventory (with --fleet-url), else this host's own facts.\n" +
    `Without PATH, the state tree govern run applies without one: ${defaultStateTree()}.`,
  options: optionTable([...planOptions, ...planningOptions, ...helpOptions]),
  async run(o, operands) {
    const given = treeOperand(operands, this.usage);
    const target = pulledTree(given)?.path ?? given;
    const hosts = await hostsOf(o, o.host, false);
    const settings = () => previewSettings(target, o);
    if (o.explain !== undefined) {
      await out(await explainForHost(settings, o.explain, hosts, o.facts, o.json));
      return 0;
    }
    const plans = await planPreviews(settings, hosts);
    if (o.json) await out(JSON.stringify({ hosts: plans }, null, 2) + '\n');
    else {
      await out(plans.map(formatHostPreview).join('\n'));
      for (const p of plans) for (const e of p.errors ?? []) printError(new UserError(plans.length > 1 ? `${p.host}: ${e}` : e));
    }
    return plans.some((p) => p.errors) ? 1 : 0;
  },
});
