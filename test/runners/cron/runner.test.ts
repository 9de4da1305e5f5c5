// The real runners/cron in both runner modes, writing /etc/cron.d/govern-test-cron-PID-MODE (a name
// cron reads) and removing it; and govern refusing bad fields at planning, with the file and line.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../../support/cli.js';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';

for (const mode of MODES) {
  describe(`cron runner (${mode})`, function () {
    this.timeout(60_000);
    const name = `govern-test-cron-${process.pid}-${mode}`;
    const file = path.join('/etc/cron.d', name);
    afterEach(() => fs.rmSync(file, { force: true }));
    const cron = (args: string[], env: Record<string, string> = {}) => callRunner('cron', mode, name, args, env);
    const job = ['command=/usr/bin/true --flag', 'minute=*/15', 'hour=2', 'weekday=1-5', 'environment=MAILTO=root'];

    it('noop changes nothing; the run writes the file root-owned 0644; the second run changes nothing; a change has a diff; absent removes it', async () => {
      const noop = await cron(job, { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have created ${file}` });
      expect(fs.existsSync(file)).to.equal(false);

      expect(await cron(job)).to.include({ ok: true, changed: true, message: `created ${file}` });
      expect(fs.readFileSync(file, 'utf8')).to.equal(`# Managed by govern: cron "${name}"\nMAILTO=root\n*/15 2 * * 1-5 root /usr/bin/true --flag\n`);
      const st = fs.statSync(file);
      expect([st.mode & 0o777, st.uid, st.gid]).to.deep.equal([0o644, 0, 0]);
      expect(await cron(job)).to.include({ ok: true, changed: false, message: `${file} up to date` });

      const changed = await cron(['command=/usr/bin/true --flag', 'special=daily', 'minute=5']);
      expect(changed.ok, 'special with a time field is refused').to.equal(false);
      expect(changed.message).to.equal('special = "daily" is the whole schedule: leave out minute');
      const daily = await cron(['command=/usr/bin/true --flag', 'special=daily']);
      expect(daily).to.include({ ok: true, changed: true, message: `changed ${file} (content)` });
      expect(daily.diff?.split('\n')).to.include.members(['-*/15 2 * * 1-5 root /usr/bin/true --flag', '+@daily root /usr/bin/true --flag']);

      expect(await cron(['ensure=absent'])).to.include({ ok: true, changed: true, message: `removed ${file}` });
      expect(fs.existsSync(file)).to.equal(false);
    });
  });
}

describe('cron resources in govern run', function () {
  this.timeout(60_000);
  it('bad fields, names and keys are refused at planning with their lines, before anything is applied', async () => {
    const states = tempDir('govern-cron-states-');
    writeFile(
      path.join(states, 'cron.hcl'),
      `cron "backup.daily" {
  command = "x"
}

cron "govern-test-cron-bad-${process.pid}" {
  command = "x"
  minute  = 60
  weekday = "mon-fri"
  mnute   = 5
}
`,
    );
    const r = await govern(['run', states]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('cron.hcl:1: cron:backup.daily: name "backup.daily" is not a file name cron reads');
    expect(r.stderr).to.contain('cron.hcl:7: ');
    expect(r.stderr).to.contain('minute "60" is not a cron minute field');
    expect(r.stderr).to.contain('cron.hcl:8: ');
    expect(r.stderr).to.contain('unknown key "mnute" (did you mean "minute"?)');
    expect(fs.existsSync(`/etc/cron.d/govern-test-cron-bad-${process.pid}`)).to.equal(false);
  });
});
