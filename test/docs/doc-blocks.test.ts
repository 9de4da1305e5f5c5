// The docs test's extractor: it finds every fence with its line and marker, refuses a marker it does
// not know, splits a transcript into commands and outputs, and compares shown lines with printed ones.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pageBlocks, parseMarker, transcript, treeFile } from '../support/doc-blocks';
import { normalise, shows } from '../support/doc-run';
import { tempDir, writeFile } from '../support/tmp';

describe('docs test: the fenced-block extractor #once', () => {
  it('finds every block with its line, its marker above other comments, and an unmarked one', () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'page.md'), [
      '# A page', '', '<!-- govern-docs: tree web -->', '<!-- example: x -->', '```hcl', '# data/common.hcl', 'a = 1', '```',
      '', '  ```sh', '  echo indented', '  ```', '<!-- govern-docs: runn web -->', '```', 'x', '```', '',
    ].join('\n'));
    const [tree, bare, wrong] = pageBlocks(dir, 'page.md');
    assert.deepEqual([tree.line, tree.marker, treeFile(tree)], [5, { kind: 'tree', tree: 'web', file: undefined }, 'data/common.hcl']);
    assert.deepEqual([bare.line, bare.marker, bare.text], [10, undefined, 'echo indented\n']);
    assert.match(wrong.problem ?? '', /"runn web" is not a govern-docs marker/);
  });

  it('reads each marker of the vocabulary', () => {
    assert.deepEqual(parseMarker('run ci exit=2'), { kind: 'run', tree: 'ci', exit: 2 });
    assert.deepEqual(parseMarker('tree ci snapshots/web1.json'), { kind: 'tree', tree: 'ci', file: 'snapshots/web1.json' });
    assert.deepEqual(parseMarker('illustrative: another OS'), { kind: 'illustrative', reason: 'another OS' });
    assert.equal(typeof parseMarker('illustrative'), 'string'); // a reason is required
    assert.equal(typeof parseMarker('run'), 'string');
  });

  it('splits a transcript, and compares only after normalising durations, dates and the temporary directory', () => {
    assert.deepEqual(transcript('$ a\none\n$ b\n'), [{ command: 'a', output: 'one\n' }, { command: 'b', output: '' }]);
    assert.deepEqual(transcript('echo x\n$ a\n'), []);
    const printed = normalise('build\nok /tmp/d/trees/x/f (0.14s) at 2026-11-23T09:30:02.512Z\nend', '/tmp/d');
    assert.ok(shows(printed, normalise('ok x/f (9.99s) at 2025-01-01T00:00:00Z\n', '/tmp/d')));
    assert.ok(!shows(printed, 'ok x/g (N.NNs) at DATE\n'));
    assert.ok(!shows(printed, 'end\nbuild\n'));
  });
});
