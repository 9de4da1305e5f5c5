// A check's report as JUnit XML, which CI systems (Jenkins, GitLab) show as tests: one test case per
// file checked, failing with one <failure> per problem of the file; problems of no file fail the
// case "tree".
import type { CheckReport } from './check-tree.js';
import type { CheckProblem } from './locate.js';
import { xml } from '../shared/xml.js';

export function checkJunit(report: CheckReport): string {
  const byFile = new Map<string, CheckProblem[]>(report.files.map((f) => [f, []]));
  for (const p of report.problems) {
    const key = p.file ?? 'tree';
    byFile.set(key, [...(byFile.get(key) ?? []), p]);
  }
  const failed = [...byFile.values()].filter((list) => list.length > 0).length;
  const cases = [...byFile.entries()].map(([file, problems]) => {
    const open = `    <testcase classname="govern.check" name="${xml(file)}"`;
    if (problems.length === 0) return `${open}/>`;
    const failures = problems.map((p) => {
      const where = p.line !== undefined ? `${p.file}:${p.line}${p.column !== undefined ? `:${p.column}` : ''}` : p.file ?? 'tree';
      return `      <failure type="${p.rule}" message="${xml(p.message)}">${xml(`${where}: ${p.message}`)}</failure>`;
    });
    return [`${open}>`, ...failures, '    </testcase>'].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="govern check" tests="${byFile.size}" failures="${failed}" errors="0">`,
    `  <testsuite name="govern check" tests="${byFile.size}" failures="${failed}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
