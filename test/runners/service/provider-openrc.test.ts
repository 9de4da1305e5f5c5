// The OpenRC provider against the real OpenRC (Debian's rc-service, rc-update, openrc-run and
// librc, unpacked by scripts/setup-debian), driven through runners/service and govern run: every
// call runs in a private mount namespace where that OpenRC is the init system, booted into its
// default runlevel, with the test's scripts as /etc/init.d (support/openrc-root.ts). The provider
// finds rc-service and rc-update on PATH, as on Alpine.
import { expect } from 'chai';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { CALL_ENV, parseResult } from '../../../src/shared/protocol.js';
import { GOVERN, RUNNERS_DIR, TEST_VAR_DIR } from '../../support/cli.js';
import { processAlive } from '../../support/proc.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { OpenrcRoot } from './support/openrc-root.js';

const NAME = `govern-port-openrc-${process.pid}`;
const NO_RELOAD = `${NAME}-noreload`;

describe('service runner, openrc provider (real rc-service, rc-update and openrc-run)', function () {
  this.timeout(120_000);
  let root: OpenrcRoot;

  /** runners/service inside the namespace, as govern calls it: its result lines read. */
  async function service(name: string, args: string[], extra: NodeJS.ProcessEnv = {}) {
    const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
    for (const key of CALL_ENV) if (extra[key] === undefined) delete env[key];
    const r = await root.run([path.join(RUNNERS_DIR, 'service'), name, ...args], env);
    return { code: r.code, ...parseResult(r.stdout), stderr: r.stderr };
  }
  async function applied(args: string[], extra: NodeJS.ProcessEnv = {}) {
    const r = await service(NAME, [...args, 'provider=openrc'], extra);
    if (r.code !== 0) throw new Error(`runners/service ${NAME} ${args.join(' ')} failed (exit ${r.code}): ${r.message}\n${r.stderr}`);
    return r;
  }
  const running = () => {
    const pid = root.pid(NAME);
    return pid !== undefined && processAlive(pid);
  };

  before(async function () {
    if (!OpenrcRoot.available()) this.skip(); // scripts/setup-debian test unpacks OpenRC
    root = new OpenrcRoot();
    await root.boot();
    root.addService(NAME, { reload: true });
    root.addService(NO_RELOAD, { reload: false });
  });

  after(async () => {
    await root?.remove();
  });

  it('an unknown service: a clear error #once', async () => {
    const r = await service('govern-port-no-such', ['ensure=running', 'provider=openrc']);
    expect(r.code).to.equal(1);
    expect(r.message).to.include('service govern-port-no-such not found: rc-service knows no such service');
  });

  it('is chosen without provider = "openrc" when OpenRC booted the host (/run/openrc/softlevel) #once', async () => {
    const r = await service(NAME, ['ensure=running'], { GOVERN_NOOP: '1' });
    expect(r).to.deep.include({ code: 0, changed: true, message: 'Would have started' });
    expect(r.stderr).to.include(`noop: would start ${NAME} (openrc)`);
  });

  it('stopped and in no runlevel: no change #once', async () => {
    expect(await applied(['ensure=stopped'])).to.deep.include({ changed: false, message: 'stopped' });
  });

  it('ensure running: rc-service start; enable left alone (in no runlevel) #once', async () => {
    expect(await applied(['ensure=running'])).to.deep.include({ changed: true, message: 'started' });
    expect(processAlive(await root.startedPid(NAME))).to.equal(true);
    expect(root.runlevels(NAME)).to.deep.equal([]);
    expect(await applied(['ensure=running', 'enable=false'])).to.deep.include({ changed: false, message: 'running, disabled' });
  });

  it('enable true while running: rc-update adds it to the default runlevel, same process #once', async () => {
    const before = root.pid(NAME);
    expect(await applied(['ensure=running', 'enable=true'])).to.deep.include({ changed: true, message: 'enabled' });
    expect(root.runlevels(NAME)).to.deep.equal(['default']);
    expect(root.pid(NAME)).to.equal(before);
    expect(await applied(['enable=true'])).to.deep.include({ changed: false, message: 'running, enabled' });
  });

  it('enable false while running: out of every boot runlevel, still running #once', async () => {
    const before = root.pid(NAME);
    expect((await root.run(['rc-update', 'add', NAME, 'boot'])).code).to.equal(0);
    expect(root.runlevels(NAME)).to.deep.equal(['boot', 'default']);
    expect(await applied(['ensure=running', 'enable=false'])).to.deep.include({ changed: true, message: 'disabled' });
    expect(root.runlevels(NAME)).to.deep.equal([]);
    expect(root.pid(NAME)).to.equal(before);
    expect(running()).to.equal(true);
  });

  it('noop: says what it would do and changes nothing #once', async () => {
    const r = await applied(['ensure=stopped', 'enable=true'], { GOVERN_NOOP: '1' });
    expect(r).to.deep.include({ changed: true, message: 'Would have stopped; Would have enabled' });
    expect(running()).to.equal(true);
    expect(root.runlevels(NAME)).to.deep.equal([]);
  });

  it('ensure stopped, enable true: rc-service stop, then enabled; it stays stopped #once', async () => {
    const before = root.pid(NAME)!;
    expect(await applied(['ensure=stopped', 'enable=true'])).to.deep.include({ changed: true, message: 'stopped; enabled' });
    expect(processAlive(before)).to.equal(false);
    expect(root.runlevels(NAME)).to.deep.equal(['default']);
    expect(await applied(['ensure=stopped', 'enable=true'])).to.deep.include({ changed: false, message: 'stopped, enabled' });
  });

  it('notification mode: refresh starts a stopped service, restart makes a new process, reload runs the script\'s reload #once', async () => {
    expect(await applied(['ensure=running'], { GOVERN_SIGNAL: 'refresh' })).to.deep.include({ changed: true, message: 'started' });
    const first = await root.startedPid(NAME);
    expect(await applied(['ensure=running'], { GOVERN_SIGNAL: 'restart' })).to.deep.include({ changed: true, message: 'restarted' });
    const second = await root.startedPid(NAME, first);
    expect(processAlive(first)).to.equal(false);
    expect(await applied(['ensure=running'], { GOVERN_SIGNAL: 'reload' })).to.deep.include({ changed: true, message: 'reloaded' });
    expect(root.reloads(NAME)).to.equal(1);
    expect(root.pid(NAME)).to.equal(second);
    expect(await applied(['ensure=stopped'], { GOVERN_SIGNAL: 'refresh' })).to.deep.include({ changed: false, message: 'refresh ignored: ensure is stopped' });
  });

  it('reload of a script that offers none: a clear error #once', async () => {
    expect((await service(NO_RELOAD, ['ensure=running', 'provider=openrc'])).code).to.equal(0);
    const r = await service(NO_RELOAD, ['ensure=running', 'provider=openrc'], { GOVERN_SIGNAL: 'reload' });
    expect(r.code).to.equal(1);
    expect(r.message).to.include(`/etc/init.d/${NO_RELOAD} does not support reload`);
    expect((await service(NO_RELOAD, ['ensure=stopped', 'provider=openrc'])).code).to.equal(0);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`through govern run (${mode} runner): stopped, then zero changes`, async () => {
      expect((await applied(['ensure=running'])).code).to.equal(0);
      const pid = await root.startedPid(NAME);
      const dir = tempDir('govern-openrc-run-');
      writeFile(path.join(dir, 'services.hcl'), `service "${NAME}" {\n  ensure   = "stopped"\n  provider = "openrc"\n}\n`);
      const once = async () => {
        const env = { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env };
        const r = await root.run([GOVERN, 'run', dir, '--json', '--runner-mode', mode], env);
        expect(r.code, r.stderr).to.equal(0);
        return JSON.parse(r.stdout) as RunReport;
      };
      expect((await once()).resources[0]).to.include({ status: 'changed', message: 'stopped' });
      expect(processAlive(pid)).to.equal(false);
      expect((await once()).summary).to.include({ changed: 0, unchanged: 1 });
    });
  }
});
