// `noop = true` on one resource (Puppet's per-resource noop, Ansible's check_mode): in a real run it
// reports what it would change and changes nothing; its notifications, and those sent to it, are
// reported and not sent; what comes after its changes is checked as in a --noop run (told what it
// would have made: GOVERN_NOOP_PENDING) and not failed; the other resources apply. Real file, exec
// and user runners (no account is created).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, RUNNERS_DIR } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { entry } from '../runners/user/support.js';

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

  for (const mode of ['persistent', 'oneshot']) {
    it(`what comes after its changes is checked as in a --noop run, named and not failed; exit code as Puppet's (${mode} runners)`, async () => {
      const user = 'govnoopheld';
      expect(await entry('passwd', user)).to.equal(undefined);
      const dir = tempDir('govern-resource-noop-');
      const srv = path.join(dir, 'srv');
      const states = path.join(dir, 'states');
      writeFile(
        path.join(states, 'a.hcl'),
        `user "${user}" {\n  system = true\n  noop   = true\n}\n` +
          `file "${srv}" {\n  ensure = "directory"\n  owner  = "${user}"\n  group  = "${user}"\n  mode   = "0755"\n  notify = ["exec:touch notified"]\n}\n` +
          `exec "touch done" {\n  command = "/usr/bin/touch ${dir}/done"\n  creates = "${dir}/done"\n  after   = ["file:${srv}"]\n}\n` +
          `exec "touch notified" {\n  command      = "/usr/bin/touch ${dir}/notified"\n  refresh_only = true\n}\n` +
          file(`${dir}/applied`),
      );
      const run = (...extra: string[]) => govern(['run', '--runners-dir', RUNNERS_DIR, '--runner-mode', mode, '--detailed-exitcodes', ...extra, states]);
      const r = await run('--json');
      expect(r.code, r.stderr).to.equal(2); // file:applied changed; the held ones count as neither changed nor failed
      const report = JSON.parse(r.stdout) as RunReport;
      expect(report.resources.map((x) => [x.ref, x.status, x.would_change, x.message])).to.deep.equal([
        [`user:${user}`, 'unchanged', true, `Would have created system user ${user}`],
        [
          `file:${srv}`,
          'unchanged',
          true,
          `Would have created directory (user "${user}" and group "${user}" do not exist yet: user:${user} would create them); not applied: it comes after user:${user}, held back by noop = true`,
        ],
        [`exec:touch done`, 'unchanged', true, `Would have executed; not applied: it comes after user:${user}, held back by noop = true`],
        [`exec:touch notified`, 'unchanged', false, 'not run: refresh_only and not notified'], // after file:srv: called in noop too
        [`file:${dir}/applied`, 'changed', undefined, 'created the file'],
      ]);
      expect(report.notifications.map((n) => [n.to, n.status])).to.deep.equal([['exec:touch notified', 'noop']]);
      expect([fs.existsSync(srv), fs.existsSync(`${dir}/done`), fs.existsSync(`${dir}/notified`), fs.existsSync(`${dir}/applied`)]).to.deep.equal([false, false, false, true]);
      expect(await entry('passwd', user)).to.equal(undefined);

      // Only held changes left: as Puppet counts a noop resource's pending changes, not a change (0), and the text says noop.
      const again = await run();
      expect(again.code, again.stdout + again.stderr).to.equal(0);
      expect(again.stdout).to.include(`noop      file:${srv}  Would have created directory`);
    });
  }

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
