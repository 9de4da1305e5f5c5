// The real runners/unit in both runner modes, in the user scope under a directory of the test's own
// (XDG_CONFIG_HOME) and inside a run (GOVERN_RUN_DIR), so a change leaves its daemon-reload pending
// rather than run: create, noop with a diff, the second run, a drop-in, removal, refusals.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const UNIT = '[Unit]\nDescription=govern unit runner test\n[Service]\nExecStart=/bin/sleep 1000\n';

function setup() {
  const config = tempDir('govern-unit-config-');
  const runDir = tempDir('govern-unit-run-');
  const dir = path.join(config, 'systemd', 'user');
  const pending = path.join(runDir, 'unit', 'daemon-reload-user');
  const env = { XDG_CONFIG_HOME: config, GOVERN_RUN_DIR: runDir };
  return { dir, pending, env, runDir };
}

for (const mode of MODES) {
  describe(`unit runner (${mode}) #once`, function () {
    this.timeout(60_000);
    const unit = (t: ReturnType<typeof setup>, name: string, args: string[], extra: Record<string, string> = {}) =>
      callRunner('unit', mode, name, ['scope=user', ...args], { ...t.env, ...extra });

    it('noop changes nothing; the run creates the file 0644 and leaves one daemon-reload pending; the second run changes nothing', async () => {
      const t = setup();
      const file = path.join(t.dir, 'govern-test.service');
      const noop = await unit(t, 'govern-test.service', [`content=${UNIT}`], { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have created ${file}` });
      expect(fs.existsSync(file)).to.equal(false);
      expect(fs.existsSync(t.pending), 'noop leaves no reload pending').to.equal(false);

      const first = await unit(t, 'govern-test.service', [`content=${UNIT}`]);
      expect(first).to.include({ ok: true, changed: true, message: `created ${file}; daemon-reload pending` });
      expect(fs.readFileSync(file, 'utf8')).to.equal(UNIT);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o644);
      expect(fs.existsSync(t.pending)).to.equal(true);

      fs.rmSync(t.pending);
      const second = await unit(t, 'govern-test.service', [`content=${UNIT}`]);
      expect(second).to.include({ ok: true, changed: false, message: `${file} up to date` });
      expect(fs.existsSync(t.pending), 'an unchanged unit needs no reload').to.equal(false);
    });

    it('a changed content shows its diff in noop mode, and is written by the run', async () => {
      const t = setup();
      const file = writeFile(path.join(t.dir, 'govern-test.service'), UNIT.replace('1000', '5'));
      const noop = await unit(t, 'govern-test.service', [`content=${UNIT}`], { GOVERN_NOOP: '1' });
      expect(noop).to.include({ changed: true, message: `Would have changed ${file} (content)` });
      expect(noop.diff?.split('\n')).to.include.members(['-ExecStart=/bin/sleep 5', '+ExecStart=/bin/sleep 1000']);
      const run = await unit(t, 'govern-test.service', [`content=${UNIT}`, 'show_diff=false']);
      expect(run).to.include({ changed: true, message: `changed ${file} (content); daemon-reload pending`, diff: undefined });
      expect(fs.readFileSync(file, 'utf8')).to.equal(UNIT);
    });

    it('a drop-in from a source file creates its directory; removing the last one removes the directory', async () => {
      const t = setup();
      const states = tempDir('govern-unit-states-');
      writeFile(path.join(states, 'files', 'limits.conf'), '[Service]\nLimitNOFILE=4096\n');
      const dropIn = path.join(t.dir, 'govern-test.service.d', 'limits.conf');
      const created = await unit(t, 'govern-test.service.d/limits.conf', ['source=files/limits.conf'], { GOVERN_STATE_DIR: states });
      expect(created).to.include({ ok: true, changed: true });
      expect(fs.readFileSync(dropIn, 'utf8')).to.equal('[Service]\nLimitNOFILE=4096\n');
      const removed = await unit(t, 'govern-test.service.d/limits.conf', ['ensure=absent']);
      expect(removed).to.include({ ok: true, changed: true, message: `removed ${dropIn}; daemon-reload pending` });
      expect(fs.existsSync(path.dirname(dropIn))).to.equal(false);
      const again = await unit(t, 'govern-test.service.d/limits.conf', ['ensure=absent']);
      expect(again).to.include({ ok: true, changed: false, message: `${dropIn} absent` });
    });

    it('refuses a masked unit (a link to /dev/null), present without content, and bad names or keys', async () => {
      const t = setup();
      fs.mkdirSync(t.dir, { recursive: true });
      fs.symlinkSync('/dev/null', path.join(t.dir, 'masked.service'));
      const masked = await unit(t, 'masked.service', [`content=${UNIT}`]);
      expect(masked.ok).to.equal(false);
      expect(masked.message).to.contain('is a symbolic link (to /dev/null)');
      expect(fs.readlinkSync(path.join(t.dir, 'masked.service'))).to.equal('/dev/null');
      expect((await unit(t, 'x.service', [])).message).to.equal('unit x.service: ensure = "present" needs its content: give content, template or source');
      expect((await unit(t, 'x.service.d/../../x.conf', ['content=x'])).message).to.contain('is not a unit file name');
      expect((await unit(t, 'x.service', ['content=x', 'sourc=y'])).message).to.equal('unknown key "sourc" (did you mean "source"?)');
      expect(fs.existsSync(t.pending)).to.equal(false);
    });
  });
}
