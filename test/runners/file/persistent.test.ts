// runners/file speaks the persistent protocol (its description says so): one process answers one JSON line per resource.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { PersistentResponse } from '../../../src/shared/persistent.js';
import { runCommand } from '../../../src/shared/process.js';
import { RUNNERS_DIR } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';
import { sha256 } from './support.js';

describe('file runner, persistent protocol #once', () => {
  it('says so when asked, and one process serves requests in order, a failure included', async () => {
    const described = await runCommand(path.join(RUNNERS_DIR, 'file'), [], { env: { ...process.env, GOVERN_DESCRIBE: '1' } });
    expect(JSON.parse(described.stdout)).to.include({ govern_runner: 1, persistent: true });
    const dir = tempDir();
    const target = path.join(dir, 'f');
    fs.symlinkSync('/etc/hostname', path.join(dir, 'link'));
    const attrs = ['owner=root', 'group=root', 'mode=0644'];
    const requests = [
      { argv: [target, 'ensure=present', 'contents=one\n', ...attrs], env: {} },
      { argv: [target, 'ensure=present', 'contents=one\n', ...attrs], env: {} },
      { argv: [path.join(dir, 'link'), 'ensure=present', 'contents=x', ...attrs], env: {} },
      { argv: [target, 'ensure=present', 'contents=two\n', ...attrs], env: { GOVERN_NOOP: '1' } },
      { argv: [target, 'ensure=present', 'contents=one\n', ...attrs], env: { GOVERN_SIGNAL: 'refresh' } },
      { argv: [path.join(dir, 'g'), 'ensure=present', 'source=files/a', ...attrs], env: { GOVERN_STATE_DIR: dir } },
    ];
    fs.mkdirSync(path.join(dir, 'files'));
    fs.writeFileSync(path.join(dir, 'files', 'a'), 'from source\n');
    const child = spawn(path.join(RUNNERS_DIR, 'file'), [], { env: { ...process.env, GOVERN_PERSISTENT: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
    const answers: PersistentResponse[] = [];
    const lines = readline.createInterface({ input: child.stdout });
    const done = new Promise<void>((resolve) => lines.on('close', () => resolve()));
    lines.on('line', (line) => answers.push(JSON.parse(line) as PersistentResponse));
    requests.forEach((request, i) => child.stdin.write(JSON.stringify({ id: i + 1, ...request }) + '\n')); // all at once: answered in order
    child.stdin.end();
    await done;
    expect(answers.map((a) => a.id)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(answers.map((a) => [a.ok, a.changed, a.message])).to.deep.equal([
      [true, true, 'created the file'],
      [true, false, 'file up to date'],
      [false, false, `${path.join(dir, 'link')} is a symbolic link (to /etc/hostname); govern does not follow or replace a symbolic link at a managed path`],
      [true, true, `Would have changed content sha256:${sha256('one\n').slice(0, 12)} -> sha256:${sha256('two\n').slice(0, 12)}`],
      [true, false, 'refresh: nothing to do for a file'],
      [true, true, 'created the file'],
    ]);
    expect(answers[3].diff?.split('\n')).to.include.members(['-one', '+two']);
    expect(fs.readFileSync(target, 'utf8')).to.equal('one\n');
    expect(fs.readFileSync(path.join(dir, 'g'), 'utf8')).to.equal('from source\n');
  });
});
