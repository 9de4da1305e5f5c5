// The docs are tests: every fenced block of README.md and docs/*.md is a file of a tree the test
// builds, a command it runs, an output it compares, a block another test runs, or marked
// illustrative with its reason (the vocabulary: docs/testing.md, "The docs are tests").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Block, docPages, pageBlocks, treeFile } from '../support/doc-blocks';
import { normalise, runPage, shows } from '../support/doc-run';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const pages = docPages(ROOT).map((page) => ({ page, blocks: pageBlocks(ROOT, page) }));
const where = (b: Block): string => `${b.page}:${b.line}`;

// One pass: the pages show govern's default runs (one job, persistent runners), and with
// GOVERN_JOBS=4 the lines of a run would come in another order than the page shows.
describe('docs: every fenced block is run or illustrative #once', () => {
  it('marks every block, and says how many are run and illustrative', () => {
    const problems: string[] = [];
    const counts = new Map<string, { run: number; illustrative: number }>();
    for (const { page, blocks } of pages) {
      const count = { run: 0, illustrative: 0 };
      let ran = false;
      for (const b of blocks) {
        const m = b.marker;
        if (b.problem) problems.push(`${where(b)}: ${b.problem}`);
        else if (!m) problems.push(`${where(b)}: a block with no govern-docs marker (tree, run, output, check, tested or illustrative: docs/testing.md)`);
        else if (m.kind === 'illustrative') count.illustrative++;
        else count.run++;
        if (m?.kind === 'tree' && !treeFile(b)) problems.push(`${where(b)}: a tree block whose file is named neither by its marker nor by its first line's comment`);
        if (m?.kind === 'output' && !ran) problems.push(`${where(b)}: an output block with no run block before it on the page`);
        if (m?.kind === 'tested' && !fs.existsSync(path.join(ROOT, m.by))) problems.push(`${where(b)}: tested by ${m.by}, which does not exist`);
        if (m?.kind === 'run') ran = true;
      }
      if (count.run + count.illustrative) counts.set(page, count);
    }
    const total = [...counts.values()].reduce((a, c) => ({ run: a.run + c.run, illustrative: a.illustrative + c.illustrative }), { run: 0, illustrative: 0 });
    console.log(`      docs: ${total.run} blocks run, ${total.illustrative} illustrative`);
    for (const [page, c] of counts) console.log(`        ${page}: ${c.run} run, ${c.illustrative} illustrative`);
    assert.deepEqual(problems, []);
  });

  for (const { page, blocks } of pages) {
    if (!blocks.some((b) => b.marker?.kind === 'run' || b.marker?.kind === 'check')) continue;
    it(`${page}: its trees are built, its commands run and print what it shows`, function () {
      this.timeout(900_000);
      const files = new Map(blocks.filter((b) => b.marker?.kind === 'tree').map((b) => [b, treeFile(b)!]));
      const { steps, tmp, log } = runPage(ROOT, blocks, files);
      const problems: string[] = [];
      if (steps.some((s) => s.status === -1)) problems.push(`the page's commands did not all run: ${log}`);
      for (const s of steps) {
        const said = `${where(s.block)}: ${s.command.trim().split('\n')[0]}`;
        if (s.status !== s.want) problems.push(`${said}: exit ${s.status}, the page wants ${s.want}:\n${s.output}`);
        if (s.expected !== undefined && normalise(s.output, tmp) !== normalise(s.expected, tmp)) {
          problems.push(`${said}: printed\n${s.output}the page shows\n${s.expected}`);
        }
      }
      // An output block shows what the run block before it printed: its lines, together, in order.
      let last: string | undefined;
      for (const b of blocks) {
        if (b.marker?.kind === 'run') last = steps.filter((s) => s.block === b).map((s) => s.output).join('');
        if (b.marker?.kind === 'output' && last !== undefined && !shows(normalise(last, tmp), normalise(b.text, tmp))) {
          problems.push(`${where(b)}: the run block before it printed\n${last}the page shows\n${b.text}`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }
});
