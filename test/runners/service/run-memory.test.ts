import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runMemory } from '../../../src/runners/service/run-memory.js';
import { tempDir } from '../../support/tmp.js';

describe('service run memory (GOVERN_RUN_DIR) #once', () => {
  it('remembers a start for the rest of the run, per service', () => {
    const dir = tempDir();
    const memory = runMemory(dir, 'sysv-system-nginx');
    expect(memory.startedThisRun()).to.equal(false);
    memory.rememberStarted();
    expect(runMemory(dir, 'sysv-system-nginx').startedThisRun()).to.equal(true);
    expect(runMemory(dir, 'sysv-system-apache2').startedThisRun()).to.equal(false);
    expect(fs.readdirSync(path.join(dir, 'service'))).to.deep.equal(['started-sysv-system-nginx']);
  });

  it('keeps "." and ".." names inside the run directory', () => {
    const dir = tempDir();
    runMemory(dir, '..').rememberStarted();
    expect(fs.readdirSync(path.join(dir, 'service'))).to.deep.equal(['started-..']);
  });

  it('remembers nothing without a usable run directory (a runner called by hand)', () => {
    for (const dir of [undefined, '', 'relative/dir', '/nonexistent/govern-run']) {
      const memory = runMemory(dir, 'sysv-system-nginx');
      memory.rememberStarted();
      expect(memory.startedThisRun(), String(dir)).to.equal(false);
    }
    expect(fs.existsSync('/nonexistent')).to.equal(false);
  });
});
