import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { callRefs, runnersWith } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** n resources, each after the one before it (and the first after the last, for a cycle). */
function chain(n: number, cycle: boolean): string {
  let text = '';
  for (let i = 0; i < n; i++) {
    const after = i > 0 ? `x:r${i - 1}` : cycle ? `x:r${n - 1}` : undefined;
    text += `x "r${i}" {\n${after ? `  after = ["${after}"]\n` : ''}}\n`;
  }
  return text;
}

describe('planning long chains of after (no recursion)', () => {
  it('orders a chain of 5,000 resources', async () => {
    const dir = tempDir('govern-harden-');
    const runners = runnersWith(path.join(dir, 'runners'), path.join(dir, 'calls.log'), ['x']);
    const state = writeFile(path.join(dir, 'a.hcl'), chain(5000, false));
    const r = await govern(['graph', state, '--runners-dir', runners, '--no-cache']);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain('"x:r0" [label="1. x:r0"];');
    expect(r.stdout).to.contain('"x:r4999" [label="5000. x:r4999"];');
  });

  it('names a cycle of 5,000 resources, with the file and line of its first, and applies nothing', async () => {
    const dir = tempDir('govern-harden-');
    const log = path.join(dir, 'calls.log');
    const runners = runnersWith(path.join(dir, 'runners'), log, ['x']);
    const state = writeFile(path.join(dir, 'a.hcl'), chain(5000, true));
    const r = await govern(['run', state, '--runners-dir', runners, '--no-cache']);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`^govern: ${state}:1: dependency cycle: x:r0 -> x:r1 -> x:r2 -> .* -> x:r4999 -> x:r0\\n$`));
    expect(callRefs(log)).to.deep.equal([]);
  });
});
