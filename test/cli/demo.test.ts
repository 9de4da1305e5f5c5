import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { govern, ROOT } from '../support/cli.js';
import { hostExclusive } from '../support/host-lock.js';
import type { RunReport } from '../../src/report/types.js';

const DEMO = path.join(ROOT, 'examples', 'demo');
const TARGET = '/tmp/govern-demo';

describe('examples/demo (the README\'s first command)', () => {
  hostExclusive(); // the demo writes /tmp/govern-demo, as the README says
  before(() => fs.rmSync(TARGET, { recursive: true, force: true }));
  after(() => fs.rmSync(TARGET, { recursive: true, force: true }));

  it('creates the demo tree on the first run and changes nothing on the second', async () => {
    const first = await govern(['run', DEMO, '--json', '--facts-dir', path.join(ROOT, 'facts.d')]);
    expect(first.code, first.stderr).to.equal(0);
    const r1 = JSON.parse(first.stdout) as RunReport;
    expect(r1.summary).to.deep.include({ resources: 7, changed: 6, failed: 0, notifications_sent: 1 });
    expect(fs.readFileSync(path.join(TARGET, 'motd'), 'utf8')).to.contain(`Welcome to ${os.hostname().split('.')[0]} (`);
    expect(fs.statSync(path.join(TARGET, 'host.conf')).mode & 0o777).to.equal(0o600);
    expect(fs.readFileSync(path.join(TARGET, 'app.conf'))).to.deep.equal(fs.readFileSync(path.join(DEMO, 'files', 'app.conf')));
    expect(fs.readFileSync(path.join(TARGET, 'data', 'reloads.log'), 'utf8').trim().split('\n')).to.have.length(1);

    const second = await govern(['run', DEMO, '--json', '--facts-dir', path.join(ROOT, 'facts.d')]);
    const r2 = JSON.parse(second.stdout) as RunReport;
    expect(second.code).to.equal(0);
    expect(r2.summary).to.deep.include({ resources: 7, changed: 0, unchanged: 7, notifications_sent: 0 });
    expect(fs.readFileSync(path.join(TARGET, 'data', 'reloads.log'), 'utf8').trim().split('\n')).to.have.length(1);
  });
});
