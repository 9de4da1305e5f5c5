// Differential checks of an edit runner against the Ansible module it follows: each case's input is
// copied twice, Ansible edits one copy (all cases in one playbook, run once) and govern's runner
// the other, and the bytes are compared. A case where the two differ on purpose gives Ansible's
// result too and the reason, which the runner's docs page gives as well.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { callRunner } from '../support/runner-modes.js';
import { skipBecause, skipUnlessTools } from '../support/tools.js';

export interface AnsibleCase {
  case: string;
  /** The file before; undefined: no file. */
  before?: string;
  /** The module's arguments, `path` added. */
  ansible: Record<string, unknown>;
  /** The runner's arguments, `path=` added. */
  govern: string[];
  /** Where the two differ on purpose: Ansible's result, and why govern's is other. */
  differs?: { ansible: string; why: string };
}

/** The mocha tests: `module` is the Ansible module's full name; `runner`'s resource is `name`. */
export function ansibleTests(module: string, runner: string, name: string, cases: AnsibleCase[]): void {
  // Kept for the whole describe (tempDir's go after each test): the playbook runs once, before them.
  let dir = '';
  const file = (i: number, who: string) => path.join(dir, `${i}`, who, 'f.conf');
  const results = new Map<number, string | undefined>();

  before(async function () {
    this.timeout(300_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `govern-${runner}-ansible-`));
    await skipUnlessTools(this, ['ansible-playbook']);
    const doc = await runCommand('ansible-doc', ['-j', module], { timeoutMs: 120_000 });
    if (doc.code !== 0 || !doc.stdout.includes('"options"')) skipBecause(this, `the installed Ansible has no module ${module}`);
    const tasks = cases.map((c, i) => {
      for (const who of ['ansible', 'govern']) {
        fs.mkdirSync(path.dirname(file(i, who)), { recursive: true });
        if (c.before !== undefined) fs.writeFileSync(file(i, who), c.before);
      }
      return { name: c.case, [module]: { path: file(i, 'ansible'), ...c.ansible } };
    });
    // JSON is YAML: no quoting rules to get wrong.
    const playbook = path.join(dir, 'playbook.json');
    fs.writeFileSync(playbook, JSON.stringify([{ hosts: 'localhost', gather_facts: false, tasks }]));
    const r = await runCommand('ansible-playbook', ['-i', 'localhost,', '-c', 'local', playbook], { timeoutMs: 280_000, env: { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_RETRY_FILES_ENABLED: '0' } });
    if (r.code !== 0) throw new Error(`ansible-playbook failed:\n${r.stdout}${r.stderr}`);
    cases.forEach((_, i) => results.set(i, fs.existsSync(file(i, 'ansible')) ? fs.readFileSync(file(i, 'ansible'), 'latin1') : undefined));
  });

  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  cases.forEach((c, i) => {
    it(`${c.case}${c.differs ? ` (differs on purpose: ${c.differs.why})` : ''}`, async () => {
      const r = await callRunner(runner, 'oneshot', name, [`path=${file(i, 'govern')}`, ...c.govern]);
      expect(r.ok, r.log).to.equal(true);
      const ours = fs.readFileSync(file(i, 'govern'), 'latin1');
      const theirs = results.get(i);
      if (c.differs) {
        expect(theirs, 'Ansible\'s result is the one documented').to.equal(c.differs.ansible);
        expect(ours).not.to.equal(theirs);
      } else {
        expect(ours, 'the same bytes as Ansible').to.equal(theirs);
      }
    });
  });
}
