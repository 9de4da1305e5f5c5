// The check that a provider's commands are on PATH (provider-choice.ts), asked once for each resource
// by a runner host that serves many: what was found is looked at again where it was found, what was
// missing is searched for again.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { providerContext } from '../../../src/shared/command-runner.js';
import { missingTools } from '../../../src/runners/kit/provider-choice.js';
import { tempDir, writeFile } from '../../support/tmp.js';

describe('provider tools on PATH #once', () => {
  it('finds a tool installed after it was missing, and misses one removed after it was found', () => {
    const first = tempDir();
    const second = tempDir();
    const context = providerContext({ PATH: `${first}:${second}` }, () => undefined);
    expect(missingTools(['tool-x'], context)).to.deep.equal(['tool-x']);
    const installed = writeFile(path.join(second, 'tool-x'), '#!/bin/sh\n', 0o755);
    expect(missingTools(['tool-x'], context), 'installed during the run').to.deep.equal([]);
    fs.rmSync(installed);
    expect(missingTools(['tool-x'], context), 'removed during the run').to.deep.equal(['tool-x']);
    writeFile(path.join(first, 'tool-x'), '#!/bin/sh\n', 0o644);
    expect(missingTools(['tool-x'], context), 'not executable').to.deep.equal(['tool-x']);
    fs.chmodSync(path.join(first, 'tool-x'), 0o755);
    expect(missingTools(['tool-x', 'tool-y'], context)).to.deep.equal(['tool-y']);
  });
});
