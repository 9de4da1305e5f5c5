// `govern run` with the unit and service runners against a real systemd user manager: a template
// unit and its drop-in, an instance of it (`name@instance`) started after them with exactly one
// daemon-reload, a changed drop-in that restarts the service it notifies, and no reload when nothing
// changed; in both runner modes.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { govern } from '../../support/cli.js';
import { MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { UserManager } from '../service/support/user-manager.js';
import { hostExclusive } from '../../support/host-lock.js';

const TEMPLATE = `govern-test-unit-${process.pid}@.service`;
const INSTANCE = `govern-test-unit-${process.pid}@one`;

describe('govern run with the unit runner (real systemd --user manager)', function () {
  hostExclusive();
  this.timeout(180_000);
  const manager = new UserManager();

  before(() => manager.start());
  after(() => manager.stop());

  afterEach(async () => {
    await manager.systemctl('stop', INSTANCE);
    fs.rmSync(path.join(manager.unitDir, TEMPLATE), { force: true });
    fs.rmSync(path.join(manager.unitDir, `${TEMPLATE}.d`), { recursive: true, force: true });
    await manager.systemctl('daemon-reload');
  });

  function tree(limit: number): string {
    const states = tempDir('govern-unit-run-');
    writeFile(
      path.join(states, 'units.hcl'),
      `service "${INSTANCE}" {
  ensure = "running"
  scope  = "user"
}

unit "${TEMPLATE}" {
  scope   = "user"
  content = "[Service]\\nExecStart=/bin/sleep 100000\\n"
}

unit "${TEMPLATE}.d/env.conf" {
  scope   = "user"
  content = "[Service]\\nEnvironment=LIMIT=${limit}\\n"
  notify  = ["service:${INSTANCE}:restart"]
}
`,
    );
    return states;
  }

  async function run(states: string, mode: string, ...extra: string[]): Promise<RunReport> {
    const r = await govern(['run', states, '--json', '--runner-mode', mode, ...extra], { env: manager.env });
    expect(r.code, `${r.stdout}\n${r.stderr}`).to.equal(0);
    return JSON.parse(r.stdout) as RunReport;
  }

  /** How many daemon-reloads the run's runners ran, from their logs. */
  const reloads = (report: RunReport) =>
    [...report.resources, ...report.notifications].flatMap((r) => r.log).filter((line) => line.includes('daemon-reload') && line.startsWith('$ ')).length;

  it('govern graph orders the instance after its template, found by name #once', async () => {
    const r = await govern(['graph', tree(1)]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`"unit:${TEMPLATE}" -> "service:${INSTANCE}" [label="autorequire"];`);
    // The drop-in notifies the service: that edge is the state file's own.
    expect(r.stdout).to.contain(`"unit:${TEMPLATE}.d/env.conf" -> "service:${INSTANCE}" [label="notify`);
  });

  for (const mode of MODES) {
    it(`a unit no service follows is reloaded at the end of the run, once, so systemd never keeps the old one (${mode} runners)`, async () => {
      const alone = `govern-test-alone-${process.pid}.service`;
      const other = `govern-test-alone-${process.pid}-b.service`;
      const unitTree = (description: string) => {
        const states = tempDir('govern-unit-alone-');
        const unit = (name: string) => `unit "${name}" {\n  scope   = "user"\n  content = "[Unit]\\nDescription=${description}\\n[Service]\\nExecStart=/bin/sleep 1000\\n"\n}\n`;
        writeFile(path.join(states, 'units.hcl'), `${unit(alone)}\n${unit(other)}`);
        return states;
      };
      const description = async (name: string) => (await manager.mustSucceed('show', '--property=Description', '--value', name)).stdout.trim();
      try {
        await run(unitTree('first'), mode);
        expect(await description(alone)).to.equal('first');
        const changed = await run(unitTree('second'), mode);
        expect(changed.resources.map((r) => r.status)).to.deep.equal(['changed', 'changed']);
        // The request is the scope's, left by whichever of the two units changed last (with several
        // jobs, either): one refresh, to that unit, from itself.
        expect(changed.notifications).to.have.length(1);
        const [sent] = changed.notifications;
        expect([`unit:${alone}`, `unit:${other}`]).to.include(sent.to);
        expect([sent.from, sent.signal, sent.status, sent.message]).to.deep.equal([[sent.to], 'refresh', 'sent', 'daemon-reload done (no service of its scope ran it in this run)']);
        expect(reloads(changed)).to.equal(1);
        expect([await description(alone), await description(other)]).to.deep.equal(['second', 'second']);
        const settled = await run(unitTree('second'), mode);
        expect([settled.notifications, reloads(settled)]).to.deep.equal([[], 0]);
      } finally {
        for (const name of [alone, other]) fs.rmSync(path.join(manager.unitDir, name), { force: true });
      }
    });

    it(`units first, one daemon-reload, the instance started with them; a changed drop-in restarts it; nothing changed, no reload (${mode} runners)`, async () => {
      const noop = await run(tree(1), mode, '--noop');
      expect(noop.summary).to.include({ changed: 3 });
      expect(reloads(noop)).to.equal(0);
      expect(fs.existsSync(path.join(manager.unitDir, TEMPLATE))).to.equal(false);

      const first = await run(tree(1), mode);
      expect(first.resources.map((r) => [r.ref, r.status])).to.deep.equal([
        [`unit:${TEMPLATE}`, 'changed'],
        [`unit:${TEMPLATE}.d/env.conf`, 'changed'],
        [`service:${INSTANCE}`, 'changed'],
      ]);
      expect(first.resources[0].message).to.match(/; daemon-reload pending$/);
      expect(reloads(first)).to.equal(1);
      expect((await manager.systemctl('is-active', INSTANCE)).stdout.trim()).to.equal('active');
      expect((await manager.mustSucceed('show', '--property=Environment', '--value', INSTANCE)).stdout.trim()).to.equal('LIMIT=1');

      const pid = await manager.mainPid(INSTANCE);
      const changed = await run(tree(2), mode);
      expect(changed.resources.map((r) => r.status)).to.deep.equal(['unchanged', 'changed', 'unchanged']);
      expect(changed.resources[1].diff?.split('\n')).to.include.members(['-Environment=LIMIT=1', '+Environment=LIMIT=2']);
      expect(changed.notifications.map((n) => [n.to, n.signal, n.status, n.message])).to.deep.equal([[`service:${INSTANCE}`, 'restart', 'sent', 'restarted']]);
      expect(reloads(changed)).to.equal(1);
      expect(await manager.mainPid(INSTANCE)).to.not.equal(pid);
      expect((await manager.mustSucceed('show', '--property=Environment', '--value', INSTANCE)).stdout.trim()).to.equal('LIMIT=2');

      const settled = await run(tree(2), mode);
      expect(settled.summary).to.include({ resources: 3, changed: 0, unchanged: 3 });
      expect(reloads(settled)).to.equal(0);
    });

    it(`retiring: the service stopped before its unit files are removed, and the next run changes nothing (${mode} runners)`, async () => {
      await run(tree(1), mode);
      const retired = tempDir('govern-unit-retire-');
      writeFile(
        path.join(retired, 'units.hcl'),
        `unit "${TEMPLATE}.d/env.conf" {\n  ensure = "absent"\n  scope  = "user"\n}\n\nunit "${TEMPLATE}" {\n  ensure = "absent"\n  scope  = "user"\n}\n\n` +
          `service "${INSTANCE}" {\n  ensure = "stopped"\n  scope  = "user"\n}\n`,
      );
      const graph = await govern(['graph', retired]);
      expect(graph.stdout).to.contain(`"service:${INSTANCE}" -> "unit:${TEMPLATE}" [label="autorequire"];`);
      const first = await run(retired, mode);
      expect(first.resources.map((r) => [r.ref, r.status])).to.deep.equal([
        [`service:${INSTANCE}`, 'changed'],
        [`unit:${TEMPLATE}.d/env.conf`, 'changed'],
        [`unit:${TEMPLATE}`, 'changed'],
      ]);
      expect((await manager.systemctl('is-active', INSTANCE)).stdout.trim()).to.not.equal('active');
      expect(fs.existsSync(path.join(manager.unitDir, TEMPLATE))).to.equal(false);
      const settled = await run(retired, mode);
      expect(settled.summary).to.include({ resources: 3, changed: 0, unchanged: 3, failed: 0 });
    });
  }
});
