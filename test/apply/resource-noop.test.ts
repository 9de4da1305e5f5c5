// `noop = true` on one resource (Puppet's per-resource noop, Ansible's check_mode): in a real run it
// reports what it would change and changes nothing; its notifications, and those sent to it, are
// reported and not sent; the other resources apply. Real file and exec runners.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const file = (p: string, extra = '') => `file "${p}" {\n  ensure   = "present"\n  contents = "x"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n${extra}}\n`;

describe('noop = true on one resource', function () {
  this.timeout(120_000);

  it('changes nothing of it, applies the rest, and sends none of its notifications', async () => {
    const dir = tempDir('govern-resource-noop-');
    const states = path.join(dir, 'states');
    writeFile(
      path.join(states, 'a.hcl'),
      file(`${dir}/held`, `  noop     = true\n  notify   = ["exec:touch held-notified"]\n`) +
        file(`${dir}/applied`) +
        `exec "touch held-notified" {\n  command      = "/usr/bin/touch ${dir}/held-notified"\n  refresh_only = true\n}\n`,
    );
    const r = await govern(['run', '--runners-dir', RUNNERS_DIR, '--detailed-exitcodes', states]);
    expect(r.code, r.stdout + r.stderr).to.equal(2); // file:applied changed
    expect(r.stdout).to.include(`noop      file:${dir}/held  Would have created the file`);
    expect(r.stdout).to.include(`noop      exec:touch held-notified <- refresh from file:${dir}/held  Would have sent refresh (noop = true)`);
    expect(fs.existsSync(`${dir}/held`)).to.equal(false);
    expect(fs.existsSync(`${dir}/applied`)).to.equal(true);
    expect(fs.existsSync(`${dir}/held-notified`)).to.equal(false);

    // Only the held resource left to do: nothing changes, so exit 0, and the report says what it would do.
    const again = await govern(['run', '--runners-dir', RUNNERS_DIR, '--detailed-exitcodes', '--json', states]);
    expect(again.code, again.stderr).to.equal(0);
    const report = JSON.parse(again.stdout) as RunReport;
    expect(report.resources[0]).to.deep.include({ ref: `file:${dir}/held`, status: 'unchanged', would_change: true, message: 'Would have created the file' });
    expect(report.resources[1]).to.not.have.property('would_change');
    expect(report.notifications[0]).to.deep.include({ status: 'noop' });
  });

  it('a notification to a resource with noop = true is reported, not sent', async () => {
    const dir = tempDir('govern-resource-noop-');
    const states = path.join(dir, 'states');
    writeFile(
      path.join(states, 'a.hcl'),
      file(`${dir}/conf`, `  notify   = ["exec:touch notified"]\n`) +
        `exec "touch notified" {\n  command      = "/usr/bin/touch ${dir}/notified"\n  refresh_only = true\n  noop         = true\n}\n`,
    );
    const r = await govern(['run', '--runners-dir', RUNNERS_DIR, states]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.include(`noop      exec:touch notified <- refresh from file:${dir}/conf  Would have sent refresh (noop = true)`);
    expect(fs.existsSync(`${dir}/notified`)).to.equal(false);
  });

  it('noop must be true or false', async () => {
    const dir = tempDir('govern-resource-noop-');
    writeFile(path.join(dir, 'states', 'a.hcl'), file(`${dir}/x`, '  noop     = "yes"\n'));
    const r = await govern(['run', '--runners-dir', RUNNERS_DIR, path.join(dir, 'states')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`a.hcl:7: file:${dir}/x: noop must be true or false`);
  });
});
