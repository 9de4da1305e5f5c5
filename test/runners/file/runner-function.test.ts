// The runner function itself (as a long-lived runner process would call it), with a fake provider
// where the real system cannot produce the case: a store that does not take effect.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { handle } from '../../../src/runners/kit/index.js';
import { posixProvider } from '../../../src/runners/lib/file/posix.js';
import { FILE_PROVIDERS, fileRunner } from '../../../src/runners/file/runner.js';
import type { FileProvider } from '../../../src/runners/lib/file/state.js';
import { UserError } from '../../../src/shared/errors.js';
import type { RunnerResult } from '../../../src/shared/protocol.js';
import { tempDir } from '../../support/tmp.js';

interface Call {
  name: string;
  pairs: [string, string][];
  noop?: boolean;
  lines: string[];
}

function request(name: string, pairs: [string, string][], extra: { noop?: boolean } = {}): Call {
  return { name, pairs, noop: extra.noop, lines: [] };
}

/** The file runner with the given provider in place of the posix one, called as a persistent runner would. */
function runWith(provider: FileProvider): (call: Call) => Promise<RunnerResult> {
  const runner = fileRunner([{ ...FILE_PROVIDERS[0], create: () => provider }]);
  return (call) => handle(runner, [call.name, ...call.pairs.map(([k, v]) => `${k}=${v}`)], call.noop ? { ...process.env, GOVERN_NOOP: '1' } : { ...process.env, GOVERN_NOOP: '' }, (line) => call.lines.push(line));
}
const runFile = runWith(posixProvider);

const ATTRS: [string, string][] = [['owner', 'root'], ['group', 'root'], ['mode', '0644']];

describe('file runner function #once', () => {
  it('fake provider: a store that does not reach the desired mode fails with the desired-state error', async () => {
    const target = path.join(tempDir(), 'f');
    const lying: FileProvider = { ...posixProvider, store: (p, content, attrs, replacing, recursive) => posixProvider.store(p, content, { ...attrs, mode: 0o600 }, replacing, recursive) };
    const error = await runWith(lying)(request(target, [['ensure', 'present'], ['contents', 'x'], ...ATTRS])).catch((e) => e);
    expect(error).to.be.instanceOf(UserError);
    expect(error.message).to.equal(`${target} did not reach the desired state after created the file: mode is 0600, expected 0644`);
  });

  it('fake provider: a directory update that does nothing fails the same way', async () => {
    const target = path.join(tempDir(), 'd');
    fs.mkdirSync(target, 0o700);
    const inert: FileProvider = { ...posixProvider, updateDirectory: async () => undefined };
    const error = await runWith(inert)(request(target, [['ensure', 'directory'], ...ATTRS])).catch((e) => e);
    expect(error.message).to.equal(`${target} did not reach the desired state after changed mode 0700 -> 0644: mode is 0700, expected 0644`);
  });

  it('serves many requests in one process, logging through request.log only', async () => {
    const dir = tempDir();
    for (let i = 0; i < 5; i++) {
      const r = request(path.join(dir, `f${i}`), [['ensure', 'present'], ['contents', `v${i}\n`], ...ATTRS]);
      expect(await runFile(r)).to.deep.equal({ changed: true, message: 'created the file' });
      const again = request(path.join(dir, `f${i}`), [['ensure', 'present'], ['contents', `w${i}\n`], ...ATTRS], { noop: true });
      const answer = await runFile(again);
      expect(answer.changed).to.equal(true);
      expect(answer.diff?.split('\n')).to.include.members([`-v${i}`, `+w${i}`]);
      expect(again.lines).to.deep.equal([]);
    }
    expect(fs.readdirSync(dir).sort()).to.deep.equal(['f0', 'f1', 'f2', 'f3', 'f4']);
  });

  it('turns a system call failure into a user error (no stack trace)', async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    const target = path.join(dir, 'f');
    const failing: FileProvider = { ...posixProvider, store: async () => Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${target}'`), { code: 'EACCES', syscall: 'open' })) };
    const error = await runWith(failing)(request(target, [['ensure', 'present'], ['contents', 'x'], ...ATTRS])).catch((e) => e);
    expect(error).to.be.instanceOf(UserError);
    expect(error.message).to.equal(`EACCES: permission denied, open '${target}'`);
  });
});
