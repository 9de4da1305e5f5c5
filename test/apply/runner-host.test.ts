// The built-in runners share one process in persistent mode (src/apply/runner-host.ts): the real
// runners, served by the real host (dist/bundle/runner-host.js), answer as their own processes do.
import { expect } from 'chai';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import { spawn, spawnSync } from 'node:child_process';
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

  describe('answers requests sent ahead together', () => {
    const HOST = path.resolve(__dirname, '..', '..', 'bundle', 'runner-host.js');

    /** The host in persistent mode, and the answers it has written so far. */
    function startHost() {
      const child = spawn(process.execPath, [HOST], { env: { ...process.env, GOVERN_PERSISTENT: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      const waiters: (() => void)[] = [];
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        for (const w of waiters.splice(0)) w();
      });
      const answers = () => out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: number; ok: boolean });
      const until = (n: number) =>
        new Promise<void>((resolve) => {
          const check = () => (answers().length >= n ? resolve() : waiters.push(check));
          check();
        });
      const send = (requests: object[]) => child.stdin.write(requests.map((q) => `${JSON.stringify(q)}\n`).join(''));
      /** Write calls the host has made (the kernel's count, /proc/PID/io). */
      const writes = () => Number(/^syscw: (\d+)$/m.exec(fs.readFileSync(`/proc/${child.pid}/io`, 'utf8'))![1]);
      return { child, answers, until, send, writes };
    }

    it('in one write of its output, not one for each', async () => {
      const host = startHost();
      try {
        host.send([{ id: 1, argv: ['x'], env: {}, runner: 'nope' }]);
        await host.until(1);
        const before = host.writes();
        host.send(Array.from({ length: 50 }, (_, i) => ({ id: i + 2, argv: ['x'], env: {}, runner: 'nope' })));
        await host.until(51);
        expect(host.answers().map((a) => a.id)).to.deep.equal(Array.from({ length: 51 }, (_, i) => i + 1));
        expect(host.writes() - before, 'write calls for 50 answers').to.be.at.most(2);
      } finally {
        host.child.kill('SIGKILL');
      }
    });

    it('without holding back an answer while the next request waits for its command', async () => {
      const dir = tempDir();
      const go = path.join(dir, 'go');
      const host = startHost();
      try {
        host.send([
          { id: 1, argv: [path.join(dir, 'first'), 'ensure=present', ...ROOT_0644], env: {}, runner: 'file' },
          { id: 2, argv: [`/bin/sh -c 'until [ -e ${go} ]; do sleep 0.05; done'`, 'provider=shell'], env: {}, runner: 'exec' },
        ]);
        // The second request ends only when this test has seen the first answer.
        await host.until(1);
        expect(host.answers()[0]).to.include({ id: 1, ok: true });
        fs.writeFileSync(go, '');
        await host.until(2);
        expect(host.answers()[1]).to.include({ id: 2, ok: true });
      } finally {
        host.child.kill('SIGKILL');
      }
    });
  });
});
