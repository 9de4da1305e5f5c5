// The built-in runners share one process in persistent mode (src/apply/runner-host.ts): the real
// runners, served by the real host (dist/bundle/runner-host.js), answer as their own processes do.
import { expect } from 'chai';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RunnerPool } from '../../src/apply/persistent-pool.js';
import { builtInRunnerHost } from '../../src/apply/runner-host.js';
import { runnerBaseEnv } from '../../src/describe/runner-env.js';
import { runner, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const FILE = path.join(RUNNERS_DIR, 'file');
const EXEC = path.join(RUNNERS_DIR, 'exec');
const ROOT_0644 = ['owner=root', 'group=root', 'mode=0644'];

/** A runner on the runner kit that answers with its pid. */
function pidRunner(dir: string, name: string): string {
  return writeFile(
    path.join(dir, name),
    `#!/usr/bin/env node
require('govern/runner').runnerMain({ description: { keys: {} }, async run(req) { return { changed: false, message: 'pid ' + process.pid }; } });
`,
    0o755,
  );
}

describe('the built-in runners in one process #once', () => {
  it('serves the runners of govern\'s own runners directory, and no runner of the same name elsewhere', () => {
    const host = builtInRunnerHost()!;
    expect(host, 'dist/bundle/runner-host.js is built').to.not.equal(undefined);
    for (const name of BUILT_IN_RUNNERS) expect(host.serves(path.join(RUNNERS_DIR, name))).to.equal(name);
    expect(host.serves(path.join(RUNNERS_DIR, 'nope'))).to.equal(undefined);
    expect(host.serves(path.join(tempDir(), 'file'))).to.equal(undefined);
  });

  it('applies resources of several built-in runners in one process, a runner of the same name elsewhere in its own', async () => {
    const dir = tempDir();
    const own = pidRunner(path.join(dir, 'runners'), 'file');
    const pool = new RunnerPool(runnerBaseEnv(process.env), 1, 60_000, builtInRunnerHost());
    try {
      const [file, exec, other] = await Promise.all([
        pool.call(FILE, { argv: [path.join(dir, 'a'), 'ensure=present', 'contents=hosted\n', ...ROOT_0644], env: {} }),
        pool.call(EXEC, { argv: [`/usr/bin/touch ${path.join(dir, 'b')}`], env: {} }),
        pool.call(own, { argv: ['x'], env: {} }),
      ]);
      expect(file).to.include({ ok: true, changed: true });
      expect(exec).to.include({ ok: true, changed: true });
      expect(fs.readFileSync(path.join(dir, 'a'), 'utf8')).to.equal('hosted\n');
      expect(fs.existsSync(path.join(dir, 'b'))).to.equal(true);
      expect(other.message).to.match(/^pid \d+$/);
      expect(pool.started).to.equal(2);
    } finally {
      await pool.closeAll();
    }
  });

  it('names the runner in its messages as the runner\'s own process does', async () => {
    const target = path.join(tempDir(), 'a');
    const args = [target, 'ensure=present', 'colour=blue'];
    const alone = (await runner('file', args)).stdout.match(/^message=(.*)$/m)![1];
    expect(alone).to.contain('unknown key "colour" (file takes');
    const pool = new RunnerPool(runnerBaseEnv(process.env), 1, 60_000, builtInRunnerHost());
    try {
      const hosted = await pool.call(FILE, { argv: args, env: {} });
      expect(hosted).to.include({ ok: false, message: alone });
    } finally {
      await pool.closeAll();
    }
  });

  it('fails a resource past its time limit alone: those of other runners sent after it are applied', async () => {
    const dir = tempDir();
    const pool = new RunnerPool(runnerBaseEnv(process.env), 1, 1000, builtInRunnerHost());
    try {
      const [slow, file] = await Promise.all([
        pool.call(EXEC, { argv: ['/bin/sleep 30'], env: {} }),
        pool.call(FILE, { argv: [path.join(dir, 'after'), 'ensure=present', ...ROOT_0644], env: {} }),
      ]);
      expect(slow.ok).to.equal(false);
      expect(slow.message).to.contain('timed out after 1s');
      expect(file, file.message).to.include({ ok: true, changed: true });
      expect(fs.existsSync(path.join(dir, 'after'))).to.equal(true);
    } finally {
      await pool.closeAll();
    }
  });

  it('answers a request for a runner it does not serve, or for none, with a failure', () => {
    const requests = [{ id: 1, argv: ['x'], env: {}, runner: 'nope' }, { id: 2, argv: ['x'], env: {} }];
    const r = spawnSync(process.execPath, [path.resolve(__dirname, '..', '..', 'bundle', 'runner-host.js')], {
      input: requests.map((q) => JSON.stringify(q) + '\n').join(''),
      encoding: 'utf8',
      env: { ...process.env, GOVERN_PERSISTENT: '1' },
      timeout: 30_000,
    });
    const answers = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; ok: boolean; message: string });
    expect(answers.map((a) => [a.id, a.ok, a.message])).to.deep.equal([
      [1, false, 'this process serves no runner "nope"'],
      [2, false, 'the request names no runner'],
    ]);
  });
});
