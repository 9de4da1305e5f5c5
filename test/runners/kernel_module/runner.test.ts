// The real runners/kernel_module in both runner modes. This machine cannot load modules (no
// modprobe, and /sys/module holds built-in modules only), so the tests check the modules-load.d
// file, the live state of a built-in module and the failure without modprobe, each named so.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

/** A module the kernel has built in, if this machine shows one. */
function builtinModule(): string | undefined {
  const names = fs.existsSync('/sys/module') ? fs.readdirSync('/sys/module') : [];
  return names.find((n) => /^[a-z0-9_]+$/.test(n) && !fs.existsSync(path.join('/sys/module', n, 'initstate')));
}

for (const mode of MODES) {
  describe(`kernel_module runner (${mode}) #once`, function () {
    this.timeout(60_000);
    const km = (name: string, args: string[], env: Record<string, string> = {}) => callRunner('kernel_module', mode, name, args, env);

    it('the persisted part (load = false): noop, create, no change on the second run, remove', async () => {
      const file = path.join(tempDir('govern-kmod-'), 'govern-test.conf');
      const noop = await km('govern_test_mod', ['load=false', `file=${file}`], { GOVERN_NOOP: '1' });
      expect(noop).to.include({ ok: true, changed: true, message: `Would have created ${file}` });
      expect(fs.existsSync(file)).to.equal(false);
      expect(await km('govern_test_mod', ['load=false', `file=${file}`])).to.include({ ok: true, changed: true, message: `created ${file}` });
      expect(fs.readFileSync(file, 'utf8')).to.equal('# Managed by govern: kernel_module "govern_test_mod"\ngovern_test_mod\n');
      expect(fs.statSync(file).mode & 0o777).to.equal(0o644);
      expect(await km('govern_test_mod', ['load=false', `file=${file}`])).to.include({ ok: true, changed: false, message: `listed in ${file}` });
      expect(await km('govern_test_mod', ['ensure=absent', 'load=false', `file=${file}`])).to.include({ ok: true, changed: true, message: `removed ${file}` });
      expect(fs.existsSync(file)).to.equal(false);
    });

    it('a built-in module counts as loaded, and cannot be unloaded', async function () {
      const name = builtinModule();
      if (name === undefined) this.skip();
      const file = path.join(tempDir('govern-kmod-'), 'b.conf');
      expect(await km(name!, ['persist=false', `file=${file}`])).to.include({ ok: true, changed: false, message: `module ${name} built into the kernel` });
      const absent = await km(name!, ['ensure=absent', `file=${file}`]);
      expect(absent.ok).to.equal(false);
      expect(absent.message).to.contain(`module ${name} is built into the kernel: it cannot be unloaded`);
    });

    it('where the machine cannot load modules (no modprobe on PATH): loading fails with that reason and lists nothing', async () => {
      const file = path.join(tempDir('govern-kmod-'), 'c.conf');
      // A PATH without modprobe even where kmod is installed; the runner adds the sbin directories,
      // so this holds only where those lack it too.
      const hasModprobe = ['/usr/local/sbin', '/usr/sbin', '/sbin', '/usr/bin', '/bin'].some((d) => fs.existsSync(path.join(d, 'modprobe')));
      const r = await km('govern_no_such_module', [`file=${file}`]);
      expect(r.ok).to.equal(false);
      if (!hasModprobe) expect(r.message).to.equal('cannot load module govern_no_such_module: modprobe not found (kmod is not installed, or this machine cannot load modules); load = false manages the file alone');
      expect(fs.existsSync(file)).to.equal(false);
    });

    it('bad input is refused before anything: the name and an unknown key, with did-you-mean', async () => {
      const bad = await km('../x', ['lod=false']);
      expect(bad.ok).to.equal(false);
      expect(bad.message).to.equal('name "../x" is not a kernel module name such as br_netfilter; unknown key "lod" (did you mean "load"?)');
    });
  });
}
