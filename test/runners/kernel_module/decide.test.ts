// The kernel_module decision table (docs/kernel_module.md), row by row: the live state and the
// modules-load.d file each checked, one message for both.
import { expect } from 'chai';
import { decideKernelModule, kernelModuleMessage, type ModuleState } from '../../../src/runners/kernel_module/decide.js';
import { loadFileContent, sysfsName, type KernelModuleProperties } from '../../../src/runners/kernel_module/properties.js';
import type { WholeFileCurrent } from '../../../src/runners/lib/whole-file/decide.js';

const FILE = '/etc/modules-load.d/govern-br_netfilter.conf';
const want = (over: Partial<KernelModuleProperties> = {}): KernelModuleProperties => ({ name: 'br_netfilter', ensure: 'present', load: true, persist: true, file: FILE, ...over });
const loadFile = (p: KernelModuleProperties) => ({ path: p.file, ensure: p.ensure, content: p.ensure === 'present' ? Buffer.from(loadFileContent(p.name)) : undefined, mode: 0o644, uid: 0, gid: 0 });
const listed: WholeFileCurrent = { type: 'file', content: Buffer.from(loadFileContent('br_netfilter')), mode: 0o644, uid: 0, gid: 0 };
const row = (p: KernelModuleProperties, live: ModuleState | undefined, file: WholeFileCurrent) => {
  const plan = decideKernelModule(p, { live, file }, loadFile(p));
  return [plan.changed, plan.modprobe, plan.file?.action, kernelModuleMessage(plan, false), kernelModuleMessage(plan, true)];
};

describe('kernel_module decision #once', () => {
  it('loaded and listed: nothing, and the message says both', () => {
    expect(row(want(), 'loaded', listed)).to.deep.equal([false, undefined, 'none', `module br_netfilter loaded; listed in ${FILE}`, `module br_netfilter loaded; listed in ${FILE}`]);
    expect(row(want(), 'builtin', listed)[3]).to.equal(`module br_netfilter built into the kernel; listed in ${FILE}`);
  });

  it('neither: modprobe and the file, and noop says both', () => {
    expect(row(want(), 'absent', { type: 'absent' })).to.deep.equal([
      true,
      'load',
      'write',
      `loaded module br_netfilter; created ${FILE}`,
      `Would have loaded module br_netfilter; Would have created ${FILE}`,
    ]);
  });

  it('a file with other content or mode is rewritten', () => {
    expect(row(want(), 'loaded', { ...listed, mode: 0o600 } as WholeFileCurrent)[3]).to.equal(`module br_netfilter loaded; changed ${FILE} (mode 0600 -> 0644)`);
  });

  it('load = false leaves the live state unread; persist = false leaves the file alone', () => {
    expect(row(want({ load: false }), undefined, { type: 'absent' })).to.deep.equal([true, undefined, 'write', `created ${FILE}`, `Would have created ${FILE}`]);
    expect(row(want({ persist: false }), 'absent', listed)).to.deep.equal([true, 'load', undefined, 'loaded module br_netfilter', 'Would have loaded module br_netfilter']);
  });

  it('absent unloads a loaded module and removes the file', () => {
    expect(row(want({ ensure: 'absent' }), 'loaded', listed)).to.deep.equal([true, 'unload', 'remove', `unloaded module br_netfilter; removed ${FILE}`, `Would have unloaded module br_netfilter; Would have removed ${FILE}`]);
    expect(row(want({ ensure: 'absent' }), 'absent', { type: 'absent' })).to.deep.equal([false, undefined, 'none', `module br_netfilter not loaded; ${FILE} absent`, `module br_netfilter not loaded; ${FILE} absent`]);
  });

  it('a built-in module cannot be unloaded; with load = false only the file goes', () => {
    expect(() => row(want({ ensure: 'absent' }), 'builtin', listed)).to.throw('module br_netfilter is built into the kernel: it cannot be unloaded');
    expect(row(want({ ensure: 'absent', load: false }), undefined, listed)[3]).to.equal(`removed ${FILE}`);
  });

  it('names the module with underscores in /sys/module, as the kernel does', () => {
    expect(sysfsName('nf-conntrack')).to.equal('nf_conntrack');
  });
});
