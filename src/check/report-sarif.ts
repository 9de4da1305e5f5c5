// A check's report as SARIF 2.1.0, the format code-scanning services (GitHub's, GitLab's) annotate
// a pull request from: one run of the tool govern, one result per problem with its region, file
// URIs relative to the tree (uriBaseId SRCROOT), one rule per phase that finds problems.
import { governVersion } from '../config/paths.js';
import type { CheckReport } from './check-tree.js';
import type { CheckRule } from './locate.js';

const RULES: Record<CheckRule, string> = {
  data: 'the hierarchy and data files: levels, keys, merges, secrets (docs/data.md)',
  state: 'state files and modules: templates rendered, HCL parsed, module parameters, duplicates',
  templates: 'the file templates resources name (template = ...)',
  resources: 'resources against their runners: runners, keys, types, values, references, cycles',
};

export function checkSarif(report: CheckReport): string {
  const rules = Object.keys(RULES) as CheckRule[];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'govern',
            version: governVersion(),
            rules: rules.map((id) => ({ id, shortDescription: { text: RULES[id] } })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: `file://${encodeURI(report.root)}/` } },
        results: report.problems.map((p) => ({
          ruleId: p.rule,
          ruleIndex: rules.indexOf(p.rule),
          level: 'error',
          message: { text: p.message },
          ...(p.file !== undefined
            ? {
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: encodeURI(p.file), uriBaseId: 'SRCROOT' },
                      ...(p.line !== undefined ? { region: { startLine: p.line, ...(p.column !== undefined ? { startColumn: p.column, endLine: p.endLine, endColumn: p.endColumn } : {}) } } : {}),
                    },
                  },
                ],
              }
            : {}),
          ...(p.hosts ? { properties: { hosts: p.hosts } } : {}),
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
