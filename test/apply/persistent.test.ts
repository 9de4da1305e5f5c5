import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { govern, GOVERN, TEST_VAR_DIR } from '../support/cli.js';
import { processAlive } from '../support/proc.js';
import { tempDir, writeFile } from '../support/tmp.js';
import type { RunReport } from '../../src/report/types.js';

/** A runner built on the runner kit (which speaks the persistent protocol too) that records each call. */
function persistentRunner(dir: string, name: string, log: string): void {
  writeFile(
    path.join(dir, name),
    `#!/usr/bin/env node
const fs = require('node:fs');
const { runnerMain, UserError } = require('govern/runner');
runnerMain({
  description: { keys: { mode: { type: 'enum', values: ['change', 'fail', 'crash', 'hang'] } }, signals: ['refresh', 'reload'] },
  async run(req) {
    const mode = req.values.mode;
    fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, name: req.name, noop: req.noop, signal: req.signal ?? null,
      stateDir: req.stateDir, mode: mode ?? null, envNoop: req.env.GOVERN_NOOP ?? null, persistent: req.env.GOVERN_PERSISTENT ?? null }) + '\\n');
    req.log('working on ' + req.name);
    if (mode === 'fail') throw new UserError('refused ' + req.name);
    if (mode === 'crash') process.exit(7);
    if (mode === 'hang') await new Promise(() => setInterval(() => {}, 1000));
    return { changed: mode === 'change' && !req.signal, message: (req.noop ? 'Would have handled ' : 'handled ') + req.name + (req.signal ? ' on ' + req.signal : '') };
  },
});
`,
    0o755,
  );
}

/** The answer of a sh runner that speaks the persistent protocol and says so when asked. */
const DESCRIBES_PERSISTENT = '[ "${GOVERN_DESCRIBE:-}" = 1 ] && { echo \'{"govern_runner": 1, "persistent": true}\'; exit 0; }\n';
/** In a sh runner, after `read -r request`: the request's id in $id (govern sends it first). */
const READ_ID = 'id=${request#\'{"id":\'}; id=${id%%,*}\n';

/** A sh runner that speaks the persistent protocol, in a runners directory; `body` handles the requests. */
function shPersistent(dir: string, name: string, body: string): string {
  const runners = path.join(dir, 'runners');
  writeFile(path.join(runners, name), `#!/bin/sh\n${DESCRIBES_PERSISTENT}${body}`, 0o755);
  return runners;
}

function calls(log: string): { pid: number; name: string; noop: boolean; signal: string | null; stateDir: string; envNoop: string | null; persistent: string | null }[] {
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
}

function setup(state: string) {
  const dir = tempDir();
  const log = path.join(dir, 'calls.log');
  const runners = path.join(dir, 'runners');
  persistentRunner(runners, 'keep', log);
  const states = path.join(dir, 'states');
  writeFile(path.join(states, 'a.hcl'), state);
  // Persistent mode unless a test says otherwise, whatever GOVERN_RUNNER_MODE the suite runs with.
  const mode = (extra: string[]) => (extra.includes('--runner-mode') ? [] : ['--runner-mode', 'persistent']);
  const run = (...extra: string[]) => govern(['run', states, '--runners-dir', runners, '--json', ...mode(extra), ...extra]);
  return { dir, log, states, run };
}

const report = (stdout: string) => JSON.parse(stdout) as RunReport;

describe('persistent runners', () => {
  const five = 'keep "a" {}\nkeep "b" {\n  mode = "change"\n  notify = ["keep:e:reload"]\n}\nkeep "c" {}\nkeep "d" {}\nkeep "e" {}\n';

  it('starts a runner that declares it once per run and feeds it every resource and notification', async () => {
    const t = setup(five);
    const r = await t.run('--runner-mode', 'persistent', '--jobs', '1');
    expect(r.stderr).to.equal('');
    const seen = calls(t.log);
    expect(seen.map((c) => c.name)).to.deep.equal(['a', 'b', 'c', 'd', 'e', 'e']);
    expect(new Set(seen.map((c) => c.pid)).size).to.equal(1);
    expect(seen[5].signal).to.equal('reload');
    expect(seen.every((c) => c.persistent === null && c.stateDir === t.states)).to.equal(true);
    const rep = report(r.stdout);
    expect(rep.resources.map((x) => [x.ref, x.status, x.message])).to.deep.equal([
      ['keep:a', 'unchanged', 'handled a'],
      ['keep:b', 'changed', 'handled b'],
      ['keep:c', 'unchanged', 'handled c'],
      ['keep:d', 'unchanged', 'handled d'],
      ['keep:e', 'unchanged', 'handled e'],
    ]);
    expect(rep.resources[0].log).to.deep.equal(['working on a']);
    expect(rep.notifications[0]).to.deep.include({ to: 'keep:e', signal: 'reload', status: 'sent', message: 'handled e on reload' });
  });

  it('runs the same runner one process per call in oneshot mode, with the same results', async () => {
    const t = setup(five);
    const persistent = report((await t.run('--runner-mode', 'persistent')).stdout);
    fs.rmSync(t.log);
    const oneshot = report((await t.run('--runner-mode', 'oneshot')).stdout);
    expect(new Set(calls(t.log).map((c) => c.pid)).size).to.equal(6);
    const strip = (rep: RunReport) => rep.resources.map(({ duration_ms: _, ...rest }) => rest);
    expect(strip(oneshot)).to.deep.equal(strip(persistent));
  });

  it('passes noop per request', async () => {
    const t = setup('keep "a" {}\n');
    const r = report((await t.run('--noop')).stdout);
    expect(calls(t.log)[0]).to.deep.include({ noop: true, envNoop: '1' });
    expect(r.resources[0].message).to.equal('Would have handled a');
  });

  it('uses up to --jobs processes of one runner', async () => {
    const t = setup(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `keep "${n}" {}\n`).join(''));
    await t.run('--jobs', '2');
    expect(new Set(calls(t.log).map((c) => c.pid)).size).to.be.within(1, 2);
  });

  it('reports a failure like a one-shot runner, and a crash or a timeout fails only that resource', async () => {
    const t = setup('keep "a" {\n  mode = "fail"\n}\nkeep "b" {\n  mode = "crash"\n}\nkeep "c" {}\nkeep "d" {\n  mode = "hang"\n}\nkeep "e" {}\n');
    const r = await t.run('--runner-timeout', '2s', '--jobs', '1'); // one process at a time, to count replacements
    const rep = report(r.stdout);
    expect(r.code).to.equal(1);
    expect(rep.resources.map((x) => [x.ref, x.status])).to.deep.equal([
      ['keep:a', 'failed'],
      ['keep:b', 'failed'],
      ['keep:c', 'unchanged'],
      ['keep:d', 'failed'],
      ['keep:e', 'unchanged'],
    ]);
    expect(rep.resources[0].message, 'as the runner said it, in both modes').to.equal('refused a');
    expect(rep.resources[0].log).to.include('error: refused a');
    expect(rep.resources[1].message).to.match(/runner exit 7 before answering/);
    expect(rep.resources[3].message).to.match(/\(timed out after 2s and was killed\)$/);
    expect(rep.resources[3].log, 'the log of the killed request is kept').to.include('working on d');
    expect(new Set(calls(t.log).map((c) => c.pid)).size).to.equal(3);
  });

  it('takes only a JSON object with an "ok" or an "id" as an answer; other lines are log, a missing log is none', async () => {
    const dir = tempDir();
    const runners = path.join(dir, 'runners');
    writeFile(
      path.join(runners, 'terse'),
      `#!/bin/sh\n${DESCRIBES_PERSISTENT}while read -r request; do\n  ${READ_ID}  echo 1\n  echo \'"text"\'\n  echo \'{"a":1}\'\n  echo "{\\"id\\":$id,\\"ok\\":true,\\"changed\\":true,\\"message\\":\\"fine\\"}"\ndone\n`,
      0o755,
    );
    writeFile(path.join(dir, 'a.hcl'), 'terse "x" {}\nterse "y" {}\n');
    const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', runners, '--json', '--runner-mode', 'persistent']);
    expect(r.code, r.stderr).to.equal(0);
    const rep = report(r.stdout);
    expect(rep.resources.map((x) => [x.ref, x.status, x.message])).to.deep.equal([
      ['terse:x', 'changed', 'fine'],
      ['terse:y', 'changed', 'fine'],
    ]);
    expect(rep.resources[0].log).to.deep.equal(['1', '"text"', '{"a":1}']);
  });

  it('fails, and says why, a request sent to a runner that exits after answering one', async () => {
    const dir = tempDir();
    const runners = path.join(dir, 'runners');
    writeFile(path.join(runners, 'once'), `#!/bin/sh\n${DESCRIBES_PERSISTENT}read -r request\n${READ_ID}echo "{\\"id\\":$id,\\"ok\\":true,\\"changed\\":false,\\"message\\":\\"done\\",\\"log\\":[]}"\n`, 0o755);
    writeFile(path.join(dir, 'a.hcl'), 'once "x" {}\nonce "y" {}\n');
    const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', runners, '--json', '--runner-mode', 'persistent', '--jobs', '1']);
    const rep = report(r.stdout);
    expect(rep.resources[0]).to.deep.include({ status: 'unchanged', message: 'done' });
    expect(rep.resources[1].status).to.equal('failed');
    expect(rep.resources[1].message).to.match(/runner exit 0 before answering; a persistent runner serves requests until its stdin closes/);
  });

  it('takes a persistent runner and what it started down when govern is interrupted, and leaves no run directory', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const runDirFile = path.join(dir, 'rundir');
    writeFile(path.join(dir, 'a.hcl'), `exec "long" {
  provider = "shell"
  command  = "echo $GOVERN_RUN_DIR > ${runDirFile}; echo $$ > ${pidFile}; exec sleep 300"
  timeout  = "0"
}
`);
    const child = spawn(GOVERN, ['run', path.join(dir, 'a.hcl'), '--runner-mode', 'persistent'], { stdio: 'ignore', env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env } });
    for (let i = 0; i < 200 && !fs.existsSync(pidFile); i++) await new Promise((res) => setTimeout(res, 50));
    await new Promise((res) => setTimeout(res, 100));
    child.kill('SIGINT');
    const code = await new Promise((res) => child.on('exit', (c) => res(c)));
    expect(code).to.equal(130);
    const sleeper = Number(fs.readFileSync(pidFile, 'utf8'));
    for (let i = 0; i < 60 && processAlive(sleeper); i++) await new Promise((res) => setTimeout(res, 50));
    expect(processAlive(sleeper), 'the command outlived the interrupted run').to.equal(false);
    expect(fs.existsSync(fs.readFileSync(runDirFile, 'utf8').trim())).to.equal(false);
  });

  it('keeps the one-shot protocol for a runner that does not describe itself', async () => {
    const dir = tempDir();
    const runners = path.join(dir, 'runners');
    writeFile(path.join(runners, 'plain'), '#!/bin/sh\necho "message=pid $$ args $*"\n', 0o755);
    writeFile(path.join(dir, 'a.hcl'), 'plain "x" {\n  k = "v"\n}\n');
    const r = report((await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', runners, '--json'])).stdout);
    expect(r.resources[0].message).to.match(/^pid \d+ args x k=v$/);
  });
  it('sends a runner the next ready resource while it works on the previous one, but never one whose dependency is under way', async () => {
    // A runner without the kit: it records when each request arrives and when it answers, and takes 0.3 s a request.
    const dir = tempDir();
    const runners = path.join(dir, 'runners');
    const log = path.join(dir, 'events');
    writeFile(
      path.join(runners, 'slow'),
      `#!/usr/bin/env node
const fs = require('node:fs');
if (process.env.GOVERN_DESCRIBE === '1') { console.log('{"govern_runner": 1, "persistent": true}'); process.exit(0); }
const note = (text) => fs.appendFileSync(${JSON.stringify(log)}, text + '\\n');
let queue = Promise.resolve();
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  note('sent ' + request.argv[0]);
  queue = queue.then(() => new Promise((resolve) => setTimeout(() => {
    note('answered ' + request.argv[0]);
    console.log(JSON.stringify({ id: request.id, ok: true, message: request.argv[0] }));
    resolve();
  }, 300)));
});
`,
      0o755,
    );
    writeFile(path.join(dir, 'a.hcl'), 'slow "a" {}\nslow "b" {}\nslow "c" {\n  after = ["slow:b"]\n}\n');
    const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', runners, '--json', '--runner-mode', 'persistent', '--jobs', '1']);
    expect(r.code, r.stderr).to.equal(0);
    expect(report(r.stdout).resources.map((x) => x.message)).to.deep.equal(['a', 'b', 'c']);
    const events = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(events.indexOf('sent b'), 'b is sent before a is answered').to.be.below(events.indexOf('answered a'));
    expect(events.indexOf('sent c'), 'c, which comes after b, waits for its answer').to.be.above(events.indexOf('answered b'));
    expect(events.filter((e) => e.startsWith('answered'))).to.deep.equal(['answered a', 'answered b', 'answered c']);
  });

  it('starts the runners the last run of a tree used before planning it again', async () => {
    // The runner notes when it starts, a fact when templates are rendered: the order of the two tells.
    const dir = tempDir();
    const events = path.join(dir, 'events');
    const runners = shPersistent(dir, 'early', `echo started >> ${events}\nwhile read -r request; do\n${READ_ID}echo "{\\"id\\":$id,\\"ok\\":true}"\ndone\n`);
    writeFile(path.join(dir, 'facts', 'probe'), `#!/bin/sh\necho rendered >> ${events}\necho x\n`, 0o755);
    writeFile(path.join(dir, 'states', 'a.hcl'), 'early "{{fact "probe"}}" {}\n');
    const run = () =>
      govern(['run', path.join(dir, 'states'), '--runners-dir', runners, '--facts-dir', path.join(dir, 'facts'), '--runner-mode', 'persistent'], {
        env: { GOVERN_CACHE_DIR: path.join(dir, 'cache') },
      });
    expect((await run()).code).to.equal(0);
    expect(fs.readFileSync(events, 'utf8').trim().split('\n'), 'first run: nothing known before planning').to.deep.equal(['rendered', 'started']);
    fs.rmSync(events);
    expect((await run()).code).to.equal(0);
    expect(fs.readFileSync(events, 'utf8').trim().split('\n'), 'second run: started first').to.deep.equal(['started', 'rendered']);
  });

  describe('the protocol is strict', () => {
    /** Runs a.hcl holding `resources` against the runner `strict` (whose body is given), persistent mode. */
    async function runStrict(body: string, resources: string, ...extra: string[]) {
      const dir = tempDir();
      const runners = shPersistent(dir, 'strict', body);
      writeFile(path.join(dir, 'a.hcl'), resources);
      const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', runners, '--json', '--runner-mode', 'persistent', '--jobs', '1', ...extra]);
      return { r, rep: report(r.stdout), dir };
    }
    /** sh: answer the request in $id with `changed` $1 and message $2. */
    const ANSWER = 'answer() { echo "{\\"id\\":$id,\\"ok\\":true,\\"changed\\":$1,\\"message\\":\\"$2\\"}"; }\n';
    const statuses = (rep: RunReport) => rep.resources.map((x) => [x.ref, x.status]);

    it('fails a resource whose answer is malformed, saying what is wrong, instead of taking it as unchanged', async () => {
      const { rep } = await runStrict(`while read -r request; do\n${READ_ID}echo "{\\"id\\":$id,\\"ok\\":true,\\"changed\\":\\"yes\\"}"\ndone\n`, 'strict "x" {}\n');
      expect(statuses(rep)).to.deep.equal([['strict:x', 'failed']]);
      expect(rep.resources[0].message).to.equal(`runner broke the persistent protocol: wrote an answer that is not valid ("changed" is "yes", not true or false): {"id":1,"ok":true,"changed":"yes"}`);
    });

    it('fails at once on an answer-shaped line that is not an answer, rather than waiting for the time limit', async () => {
      const { rep } = await runStrict(`while read -r request; do\n${READ_ID}echo "{\\"id\\":$id,\\"ok\\":\\"true\\"}"\nsleep 60\ndone\n`, 'strict "x" {}\n', '--runner-timeout', '50s');
      expect(statuses(rep)).to.deep.equal([['strict:x', 'failed']]);
      expect(rep.resources[0].message).to.match(/^runner broke the persistent protocol: wrote an answer that is not valid \("ok" is "true", not true or false\)/);
      expect(rep.resources[0].duration_ms).to.be.below(20_000);
    });

    it('refuses a second answer to a request that was answered already, and goes on with a new process', async () => {
      // Each answer takes 0.5 s; 0.3 s after it, a copy of it arrives, while the next request is waiting.
      const body = `${ANSWER}while read -r request; do\n${READ_ID}sleep 0.5\nanswer true "pid $$"\n( sleep 0.3; answer true "stale $$" ) &\ndone\n`;
      const { rep } = await runStrict(body, 'strict "x" {}\nstrict "y" {}\n');
      expect(statuses(rep)).to.deep.equal([
        ['strict:x', 'changed'],
        ['strict:y', 'failed'],
      ]);
      expect(rep.resources[0].message).to.match(/^pid \d+$/);
      expect(rep.resources[1].message).to.match(
        /^runner broke the persistent protocol: answered request 1, which was answered already, while request 2 was waiting: \{"id":1,"ok":true,"changed":true,"message":"stale \d+"\}$/,
      );
    });

    it('does not take a line printed at start-up for the first answer', async () => {
      const body = `${ANSWER}echo '{"ok":true,"changed":true,"message":"hello"}'\nwhile read -r request; do\n${READ_ID}answer false "answered $id"\ndone\n`;
      const { rep } = await runStrict(body, 'strict "x" {}\nstrict "y" {}\n');
      // Every process of this runner says hello first: each request meets it, and fails.
      expect(statuses(rep)).to.deep.equal([
        ['strict:x', 'failed'],
        ['strict:y', 'failed'],
      ]);
      for (const resource of rep.resources) expect(resource.message).to.match(/^runner broke the persistent protocol.*"id" is missing/);
    });

    it('fails the resource of a runner writing a line with no end, and the run goes on', async () => {
      const body = `${ANSWER}while read -r request; do\n${READ_ID}case "$request" in *'"endless"'*) head -c 70000000 /dev/zero | tr '\\0' a ;; *) answer false fine ;; esac\ndone\n`;
      const { r, rep } = await runStrict(body, 'strict "endless" {}\nstrict "y" {}\n');
      expect(r.code, r.stderr).to.equal(1);
      expect(statuses(rep)).to.deep.equal([
        ['strict:endless', 'failed'],
        ['strict:y', 'unchanged'],
      ]);
      expect(rep.resources[0].message).to.equal('runner broke the persistent protocol: wrote a line longer than 67108864 characters on stdout');
    });

    it('reads the last answer of a runner that exits, to the end of its output', async () => {
      // The answer is written by what the runner leaves behind, a moment after the runner itself exited.
      const body = `${ANSWER}read -r request\n${READ_ID}( sleep 0.1; answer true late ) &\nexit 0\n`;
      const { rep } = await runStrict(body, 'strict "x" {}\n');
      expect(rep.resources.map((x) => [x.ref, x.status, x.message])).to.deep.equal([['strict:x', 'changed', 'late']]);
    });
  });
});
