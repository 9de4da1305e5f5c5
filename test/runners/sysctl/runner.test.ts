// The real runners/sysctl in both runner modes, on kernel.printk_ratelimit (how many seconds the
// kernel waits between rate-limited messages: harmless to change for a moment), restored after each
// test; the drop-in in a directory of the test's own.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { hostExclusive } from '../../support/host-lock.js';

const KEY = 'kernel.printk_ratelimit';
const LIVE = '/proc/sys/kernel/printk_ratelimit';

for (const mode of MODES) {
  describe(`sysctl runner (${mode}, the real /proc/sys) #once`, function () {
    hostExclusive();
    this.timeout(60_000);
    let original: string;
    before(() => (original = fs.readFileSync(LIVE, 'utf8').trim()));
    afterEach(() => fs.writeFileSync(LIVE, `${original}\n`));

    const other = () => String(Number(original) + 1);
    const sysctl = (args: string[], env: Record<string, string> = {}) => callRunner('sysctl', mode, KEY, args, env);

    it('noop shows both and changes neither; the run sets both; the second run changes nothing', async () => {
      const file = path.join(tempDir('govern-sysctl-'), '90-test.conf');
      const value = other();
      const noop = await sysctl([`value=${value}`, `file=${file}`], { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have set live value ${original} -> ${value}; Would have created ${file}` });
      expect(fs.readFileSync(LIVE, 'utf8').trim()).to.equal(original);
      expect(fs.existsSync(file)).to.equal(false);

      const first = await sysctl([`value=${value}`, `file=${file}`]);
      expect(first).to.include({ ok: true, changed: true, message: `set live value ${original} -> ${value}; created ${file}` });
      expect(fs.readFileSync(LIVE, 'utf8').trim()).to.equal(value);
      // A named drop-in may be shared with other keys: its header names none.
      expect(fs.readFileSync(file, 'utf8')).to.equal(`# Managed by govern: sysctl\n${KEY} = ${value}\n`);
      const second = await sysctl([`value=${value}`, `file=${file}`]);
      expect(second).to.include({ ok: true, changed: false, message: `live value ${value}; persisted in ${file}` });

      const back = await sysctl([`value=${original}`, `file=${file}`]);
      expect(back.diff?.split('\n')).to.include.members([`-${KEY} = ${value}`, `+${KEY} = ${original}`]);
      const removed = await sysctl(['ensure=absent', `file=${file}`]);
      expect(removed).to.include({ changed: true, message: `removed ${file}` });
      expect(fs.existsSync(file)).to.equal(false);
    });

    it('a value the kernel refuses fails and writes no drop-in; a key it does not have fails', async () => {
      const file = path.join(tempDir('govern-sysctl-'), '90-test.conf');
      const refused = await sysctl(['value=not-a-number', `file=${file}`]);
      expect(refused.ok).to.equal(false);
      expect(refused.message).to.equal(`cannot set ${KEY} to "not-a-number": the kernel refused the value (${LIVE})`);
      expect(fs.existsSync(file)).to.equal(false);
      const missing = await callRunner('sysctl', mode, 'kernel.govern_no_such_key', ['value=1', `file=${file}`]);
      expect(missing.message).to.contain('the kernel has no sysctl kernel.govern_no_such_key');
      const bad = await callRunner('sysctl', mode, 'kernel./..x', ['value=1', 'vaule=2']);
      expect(bad.message).to.equal('name "kernel./..x" is not a sysctl key such as net.ipv4.ip_forward; unknown key "vaule" (did you mean "value"?)');
    });
  });
}
