// A runner's process group ends with the runner: what a persistent runner leaves in its group is
// watched until nothing of it is left (a govern killed meanwhile still takes it down), and a
// one-shot runner told to stop takes its group with it. Each case runs with both cores kept busy:
// the races these close were seen only on a loaded machine.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { govern, GOVERN, TEST_VAR_DIR } from '../support/cli.js';
import { busyCores, commandLine, processAlive, processesWithEnv, until } from '../support/proc.js';
import { tempDir, writeFile } from '../support/tmp.js';

const MARK = 'GOVERN_TEST_GROUP_MARK';
const DESCRIBES = '[ "${GOVERN_DESCRIBE:-}" = 1 ] && { echo \'{"govern_runner": 1, "persistent": true}\'; exit 0; }\n';
/** A request's id, in sh, from `{"id":N,...}`. */
const READ_ID = "id=${request#'{\"id\":'}; id=${id%%,*}\n";
/** A one-shot runner's answer to GOVERN_DESCRIBE: none (a runner of the first protocol). */
const ONE_SHOT = '[ "${GOVERN_DESCRIBE:-}" = 1 ] && exit 0\n';
const ANSWER = 'echo "{\\"id\\":$id,\\"ok\\":true,\\"changed\\":false}"\n';

/** The run's processes but govern's watcher, which may wait out its grace for init to reap a zombie. */
function leftOf(token: string): string[] {
  const isWatcher = (pid: number) => commandLine(pid).includes("trap '' INT TERM HUP PIPE");
  return processesWithEnv(MARK, token)
    .filter((pid) => !isWatcher(pid))
    .map((pid) => `${pid} ${commandLine(pid)}`);
}

function cleanUp(token: string): void {
  for (const pid of processesWithEnv(MARK, token)) process.kill(pid, 'SIGKILL');
}

describe('a runner\'s process group ends with it, cores busy', function () {
  this.timeout(120_000);
  let stopBusy: () => void;
  beforeEach(() => (stopBusy = busyCores()));
  afterEach(() => stopBusy());

  it('a persistent runner that leaves a process in its group at its exit: nothing of it is left once govern has exited', async () => {
    const token = crypto.randomBytes(8).toString('hex');
    const dir = tempDir();
    const serve = `while read -r request; do\n  ${READ_ID}  sleep 4242 </dev/null >/dev/null 2>&1 &\n  ${ANSWER}done\n`;
    writeFile(path.join(dir, 'runners', 'leaver'), `#!/bin/sh\n${DESCRIBES}${serve}`, 0o755);
    writeFile(path.join(dir, 'a.hcl'), 'leaver "x" {}\n');
    try {
      const r = await govern(['run', path.join(dir, 'a.hcl'), '--runners-dir', path.join(dir, 'runners'), '--runner-mode', 'persistent'], { env: { [MARK]: token } });
      const left = leftOf(token);
      expect(r.code, r.stdout + r.stderr).to.equal(0);
      expect(left).to.deep.equal([]);
    } finally {
      cleanUp(token);
    }
  });

  it('govern killed (SIGKILL) after a persistent runner exited and left a process in its group: the watcher ends the group', async () => {
    // The runner answers, then exits at once; the next resource waits in a sleep of its own while
    // govern is killed. The group the runner left must still be govern's watcher's to end.
    const token = crypto.randomBytes(8).toString('hex');
    const dir = tempDir();
    const pidFile = path.join(dir, 'runner.pid');
    const serve = `echo $$ > ${pidFile}\nread -r request\n${READ_ID}sleep 4242 </dev/null >/dev/null 2>&1 &\n${ANSWER}exit 0\n`;
    writeFile(path.join(dir, 'runners', 'quitter'), `#!/bin/sh\n${DESCRIBES}${serve}`, 0o755);
    writeFile(path.join(dir, 'runners', 'waiter'), `#!/bin/sh\n${ONE_SHOT}exec sleep 4243\n`, 0o755);
    writeFile(path.join(dir, 'a.hcl'), 'quitter "x" {}\nwaiter "y" {\n  after = ["quitter:x"]\n}\n');
    const args = ['run', path.join(dir, 'a.hcl'), '--runners-dir', path.join(dir, 'runners'), '--runner-mode', 'persistent'];
    const child = spawn(GOVERN, args, { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, [MARK]: token }, stdio: 'ignore' });
    const exited = new Promise((res) => child.once('exit', res));
    try {
      const sleeping = (seconds: string) => processesWithEnv(MARK, token).some((pid) => commandLine(pid) === `sleep ${seconds}`);
      await until('the second resource\'s sleep', () => sleeping('4243'), 60_000);
      await until('the persistent runner to exit', () => !processAlive(Number(fs.readFileSync(pidFile, 'utf8'))), 30_000);
      child.kill('SIGKILL');
      await exited;
      await until('the run\'s processes to end', () => leftOf(token).length === 0, 6000).catch(() => {
        throw new Error(`left behind: ${leftOf(token).join('; ')}`);
      });
    } finally {
      child.kill('SIGKILL');
      cleanUp(token);
    }
  });

  it('a one-shot runner stopped by govern\'s SIGTERM takes its group with it, what ignores SIGTERM included', async () => {
    const token = crypto.randomBytes(8).toString('hex');
    const dir = tempDir();
    const ready = path.join(dir, 'ready');
    writeFile(path.join(dir, 'runners', 'stubborn'), `#!/bin/sh\n${ONE_SHOT}sh -c "trap '' TERM; echo > ${ready}; exec sleep 4242" &\nwait\n`, 0o755);
    writeFile(path.join(dir, 'a.hcl'), 'stubborn "x" {}\n');
    const args = ['run', path.join(dir, 'a.hcl'), '--runners-dir', path.join(dir, 'runners'), '--runner-mode', 'oneshot'];
    const child = spawn(GOVERN, args, { env: { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, [MARK]: token }, stdio: 'ignore' });
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    try {
      await until('the sleep that ignores SIGTERM', () => fs.existsSync(ready) && processesWithEnv(MARK, token).some((pid) => commandLine(pid) === 'sleep 4242'), 60_000);
      child.kill('SIGTERM');
      expect(await exited).to.equal(143);
      expect(leftOf(token)).to.deep.equal([]);
    } finally {
      child.kill('SIGKILL');
      cleanUp(token);
    }
  });
});
