// The runner kit (`govern/runner`): a runner declared once answers GOVERN_DESCRIBE, reads its
// arguments by their types, refuses what its description does not allow, and carries a diff in
// both protocols.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseRequest, type RunnerDefinition } from '../../../src/runners/kit/index.js';
import type { RunnerDescription } from '../../../src/shared/description.js';
import type { PersistentResponse } from '../../../src/shared/persistent.js';
import { UserError } from '../../../src/shared/errors.js';
import { runCommand } from '../../../src/shared/process.js';
import { govern, RUNNERS_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const description = {
  keys: {
    size: { type: 'integer', min: 1, default: 3 },
    tags: { type: 'list', items: { type: 'string' } },
    mode: { type: 'mode' },
    loud: { type: 'boolean', default: false },
  },
  signals: ['refresh'],
} as const satisfies RunnerDescription;

const definition: RunnerDefinition<typeof description> = {
  name: 'demo',
  description,
  run: async (request) => ({ changed: false, message: `${request.values.size + 1}` }),
};

/** A runner made with the kit, as a user writes it, that reports a diff. */
function diffRunner(dir: string): string {
  return writeFile(
    path.join(dir, 'differ'),
    `#!/usr/bin/env node
const { runnerMain } = require('govern/runner');
runnerMain({
  description: { keys: { text: { type: 'string', required: true } } },
  async run({ values, noop }) {
    return { changed: true, message: noop ? 'Would have written' : 'written', diff: '--- a\\n+++ b\\n@@ -1 +1 @@\\n-old\\n+' + values.text };
  },
});
`,
    0o755,
  );
}

describe('the runner kit', () => {
  it('hands the runner its values read by their types, defaults filled in #once', () => {
    const request = parseRequest(definition, ['x', 'tags=a', 'tags=b', 'mode=0750'], { GOVERN_NOOP: '1' }, () => undefined);
    expect(request.values).to.deep.equal({ size: 3, tags: ['a', 'b'], mode: 0o750, loud: false });
    expect(request.noop).to.equal(true);
    expect(parseRequest(definition, ['x'], {}, () => undefined).values.tags).to.deep.equal([]);
  });

  it('refuses every problem at once, a signal it does not accept included, before the runner runs #once', () => {
    let error: unknown;
    try {
      parseRequest(definition, ['x', 'size=0', 'sise=2'], { GOVERN_SIGNAL: 'restart' }, () => undefined);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(UserError);
    expect((error as UserError).problems.map((p) => p.message)).to.deep.equal([
      'unknown key "sise" (did you mean "size"?)',
      'size "0" is not an integer of at least 1',
      'demo does not accept the signal "restart" (it accepts refresh)',
    ]);
  });

  it('answers GOVERN_DESCRIBE with its description, as a persistent runner, and checks arguments by hand too #once', async () => {
    const dir = tempDir('govern-kit-');
    const runner = diffRunner(dir);
    const env = { ...process.env, NODE_PATH: path.resolve(__dirname, '..', '..', '..', '..', 'modules') };
    const described = JSON.parse((await runCommand(runner, [], { env: { ...env, GOVERN_DESCRIBE: '1' } })).stdout);
    expect(described).to.deep.include({ govern_runner: 1, persistent: true, keys: { text: { type: 'string', required: true } } });
    const bad = await runCommand(runner, ['x', 'txt=1'], { env });
    expect(bad.code).to.equal(1);
    expect(bad.stdout).to.equal('message=unknown key "txt" (did you mean "text"?); text is required\n');
    expect(bad.stderr).to.equal('error: unknown key "txt" (did you mean "text"?)\ntext is required\n');
  });

  it('answers every request it was sent when its input ends before the answers, then exits (persistent protocol) #once', async () => {
    // End of input asks for nothing to stop: govern closes it once it has sent all it had to send.
    const after = path.join(tempDir('govern-kit-'), 'after');
    const requests = [
      { id: 1, argv: ['/bin/sleep 0.5'], env: {} },
      { id: 2, argv: [`/usr/bin/touch ${after}`], env: {} },
    ];
    const input = requests.map((request) => JSON.stringify(request) + '\n').join('');
    const r = await runCommand(path.join(RUNNERS_DIR, 'exec'), [], { env: { ...process.env, GOVERN_PERSISTENT: '1' }, input, timeoutMs: 60_000 });
    expect(r.code, r.stderr).to.equal(0);
    const answers = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as PersistentResponse);
    expect(answers.map((a) => [a.id, a.ok, a.changed, a.message])).to.deep.equal([
      [1, true, true, 'executed (exit 0)'],
      [2, true, true, 'executed (exit 0)'],
    ]);
    expect(fs.existsSync(after)).to.equal(true);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`carries a runner's diff into the report, apart from its log (${mode})`, async () => {
      const dir = tempDir('govern-kit-');
      diffRunner(path.join(dir, 'runners'));
      writeFile(path.join(dir, 'a.hcl'), 'differ "x" {\n  text = "new"\n}\n');
      const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', path.join(dir, 'runners'), '--json', '--runner-mode', mode], {
        env: { GOVERN_CACHE_DIR: path.join(dir, 'cache') },
      });
      expect(r.code, r.stderr).to.equal(0);
      const [resource] = JSON.parse(r.stdout).resources;
      expect(resource).to.include({ status: 'changed', message: 'written', diff: '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new' });
      expect(resource.log).to.deep.equal([]);
    });
  }
});
