// An unclosed block names the block and the line it opened on, not "got 'EOF'" at the last line.
import { expect } from 'chai';
import path from 'node:path';
import { unclosedBlock } from '../../src/templates/unclosed-block.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

describe('an unclosed template block #once', () => {
  it('finds the innermost block left open, past comments and closed blocks', () => {
    expect(unclosedBlock('a\n{{#if x}}\n{{#each y}}{{/each}}\n{{!-- {{/if}} --}}\nb\n')).to.deep.equal({ name: 'if', line: 2 });
    expect(unclosedBlock('{{#if x}}\n{{~#each y}}\n{{/if}}')).to.equal(undefined); // mismatched: Handlebars' own message
    expect(unclosedBlock('{{#if x}}{{else}}{{/if}}')).to.equal(undefined);
    expect(unclosedBlock('{{#each a}}\n\n{{#with b}}\n')).to.deep.equal({ name: 'with', line: 3 });
  });

  it('govern render names it at the line it opened on', async () => {
    const dir = tempDir('govern-unclosed-');
    const file = writeFile(path.join(dir, 'a.hcl'), 'file "/tmp/x" {\n  ensure = "absent"\n}\n{{#if (eq 1 1)}}\nfile "/tmp/y" {\n  ensure = "absent"\n}\n');
    const r = await govern(['render', file]);
    expect(r.code).to.equal(1);
    expect(r.stderr.trim()).to.equal(`govern: ${file}:4: template syntax error: {{#if}} opened on line 4 is never closed (no {{/if}} before the end of the template)`);
  });
});
