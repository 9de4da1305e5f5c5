// govern test stopped by SIGINT (Ctrl-C in a CI job's log): the sandbox ends with everything the
// runs started in it, and nothing of it is left in the temporary directory.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { processesWith } from './support.js';

describe('govern test interrupted', function () {
  this.timeout(300_000);

  it('ends the sandbox and what runs in it, removes its work directory, and exits 130 (SIGINT)', async () => {
    const marker = `0.${parseInt(crypto.randomBytes(3).toString('hex'), 16)}`;
    const tree = tempDir();
    writeFile(path.join(tree, 'main.hcl'), `exec "/bin/sleep 300 ${marker}" {\n  timeout = "0"\n}\n`);
    const tmp = tempDir();
    const child = spawn(GOVERN, ['test', tree], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    // The first real run's command is under way once it shows in /proc.
    while (processesWith(marker).length === 0) {
      expect(child.exitCode, stderr).to.equal(null);
      await new Promise((res) => setTimeout(res, 50));
    }
    child.kill('SIGINT');
    expect(await exited, stderr).to.equal(130);
    expect(processesWith(marker)).to.deep.equal([]);
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
  });
});
