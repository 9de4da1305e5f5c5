// The real runners/hostname in both runner modes, each call in a UTS namespace of its own
// (`unshare -u`): the kernel's name it sets is the namespace's, so the host keeps its own; the name
// file is a file of the test's own directory.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

for (const mode of MODES) {
  describe(`hostname runner (${mode}, the real kernel name in a UTS namespace)`, function () {
    this.timeout(60_000);
    const host = os.hostname();
    let dir: string;
    beforeEach(() => (dir = tempDir('govern-hostname-')));
    afterEach(() => expect(os.hostname(), "the host's own name").to.equal(host));

    /** The runner in a new UTS namespace named `before`; what the kernel's name was after it, in `seen`. */
    const inNamespace = (name: string, args: string[], before: string, env: Record<string, string> = {}) => {
      const seen = path.join(dir, 'seen');
      const via = ['unshare', '-u', 'sh', '-c', `hostname "$0" && "$@"; s=$?; hostname > "${seen}"; exit $s`, before];
      return callRunner('hostname', mode, name, args, env, via).then(async (outcome) => ({ ...outcome, seen: await written(seen) }));
    };

    /** A persistent runner answers before it exits, and the namespace's name is read after that. */
    const written = async (file: string): Promise<string> => {
      for (let waited = 0; waited < 30_000; waited += 20) {
        if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').endsWith('\n')) {
          const text = fs.readFileSync(file, 'utf8').trim();
          fs.rmSync(file);
          return text;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${file} was never written: the runner's namespace did not end`);
    };

    it('noop changes nothing; the run sets the kernel name and the file; the second run changes nothing', async () => {
      const file = path.join(dir, 'hostname');
      fs.writeFileSync(file, 'localhost\n');
      const noop = await inNamespace('web1.example.com', [`file=${file}`], 'localhost', { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, seen: 'localhost', message: `Would have set the kernel's name localhost -> web1.example.com; Would have changed ${file} (content)` });
      expect(fs.readFileSync(file, 'utf8')).to.equal('localhost\n');

      const first = await inNamespace('web1.example.com', [`file=${file}`], 'localhost');
      expect(first).to.include({ ok: true, changed: true, seen: 'web1.example.com', message: `set the kernel's name localhost -> web1.example.com; changed ${file} (content)` });
      expect(first.diff?.split('\n')).to.include.members(['-localhost', '+web1.example.com']);
      expect(fs.readFileSync(file, 'utf8')).to.equal('web1.example.com\n');
      expect(fs.statSync(file).mode & 0o777).to.equal(0o644);

      const second = await inNamespace('web1.example.com', [`file=${file}`], 'web1.example.com');
      expect(second).to.include({ ok: true, changed: false, message: `the kernel's name is web1.example.com; ${file} names web1.example.com` });
    });

    it('refresh does nothing; another signal, a bad name or an unknown key is refused and nothing changes', async () => {
      const file = path.join(dir, 'hostname');
      const refresh = await inNamespace('web1', [`file=${file}`], 'localhost', { GOVERN_SIGNAL: 'refresh' });
      expect(refresh).to.include({ ok: true, changed: false, seen: 'localhost', message: 'refresh: nothing to do for a host name' });
      const restart = await inNamespace('web1', [`file=${file}`], 'localhost', { GOVERN_SIGNAL: 'restart' });
      expect(restart.ok).to.equal(false);
      expect(restart.log + (restart.message ?? '')).to.contain('hostname does not accept the signal "restart" (it accepts refresh)');
      const bad = await inNamespace('web1;reboot', ['vaule=1'], 'localhost');
      expect(bad).to.include({ ok: false, seen: 'localhost' });
      expect(bad.message).to.equal('name "web1;reboot" is not a host name such as web1 or web1.example.com (letters, digits and hyphens in dot-separated labels, at most 64 characters); unknown key "vaule" (hostname takes ensure, apply, persist, file)');
      const long = await inNamespace(`${'a'.repeat(60)}.abcd`, [`file=${file}`], 'localhost');
      expect(long.ok, 'a 65-character name').to.equal(false);
      expect(fs.existsSync(file)).to.equal(false);
    });

    it('a link at the file is refused, never followed', async () => {
      const target = path.join(dir, 'elsewhere');
      fs.writeFileSync(target, 'keep\n');
      const file = path.join(dir, 'hostname');
      fs.symlinkSync(target, file);
      const r = await inNamespace('web1', [`file=${file}`, 'apply=false'], 'localhost');
      expect(r.ok).to.equal(false);
      expect(fs.readFileSync(target, 'utf8')).to.equal('keep\n');
    });
  });
}
