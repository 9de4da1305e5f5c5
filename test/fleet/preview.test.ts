// govern plan and govern diff with the hosts' facts from the fleet's inventory, against a real
// nats-server: `plan --host NAME` plans from what NAME published, `diff` plans every host that
// published, hostfact reads the inventory, and --facts wins over it.
import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { repository, snapshots } from '../support/preview.js';
import { runnersWith } from '../support/recording-runner.js';
import { tempDir } from '../support/tmp.js';
import { putHosts } from './support.js';

const SITE = (workers: number) =>
  `pkg "nginx" {\n  version = {{quote (fact "os/family")}}\n}\n` +
  `file "/etc/motd" {\n  contents = {{quote (concat "db " (hostfact "db1.example.org" "ip") " workers ${workers}")}}\n}\n`;

describe('plan and diff from the fleet inventory #once', () => {
  let nats: NatsServer;
  let inventory: string;
  before(async () => {
    nats = await startNats();
    inventory = `the fleet's inventory at ${nats.url}`;
    await putHosts(nats.url, [
      { name: 'web1.example.org', facts: { 'os/family': 'debian' } },
      { name: 'web2.example.org', facts: { 'os/family': 'redhat' } },
      { name: 'db1.example.org', facts: { 'os/family': 'debian', ip: '10.0.0.5' } },
    ]);
  });
  after(stopAllNats);

  /** A repository whose states/ changed between its two commits; recording runners (none may be called). */
  function site() {
    const repo = repository();
    const first = repo.commit({ 'states/site.hcl': SITE(2) }, 'first');
    repo.commit({ 'states/site.hcl': SITE(4) }, 'second');
    const runners = runnersWith(path.join(tempDir(), 'runners'), path.join(tempDir(), 'calls.log'), ['file', 'pkg']);
    const states = path.join(repo.dir, 'states');
    return { repo, first, states, common: ['--runners-dir', runners, '--no-cache', '--ssh', '/bin/false'] };
  }

  it('plan --host NAME plans from the facts NAME published, hostfact from the others\'', async () => {
    const s = site();
    const r = await govern(['plan', '--json', '--host', 'web2.example.org', '--fleet-url', nats.url, ...s.common, s.states]);
    expect(r.code, r.stderr).to.equal(0);
    const [host] = JSON.parse(r.stdout).hosts;
    expect(host).to.include({ host: 'web2.example.org', facts: inventory });
    expect(host.resources.map((x: { attrs: object }) => x.attrs)).to.deep.equal([{ version: 'redhat' }, { contents: 'db 10.0.0.5 workers 4' }]);

    const explained = await govern(['plan', '--host', 'web2.example.org', '--explain', 'file:/etc/motd', ...s.common, s.states], { env: { GOVERN_FLEET_URL: nats.url } });
    expect(explained.code, explained.stderr).to.equal(0);
    expect(explained.stdout).to.contain(`    fact db1.example.org:ip = "10.0.0.5", from host db1.example.org in ${inventory}\n`);

    const missing = await govern(['plan', '--host', 'web9.example.org', '--fleet-url', nats.url, ...s.common, s.states]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.equal(`govern: host web9.example.org is not in ${inventory} (it never published its facts, or they are older than --inventory-max-age)\n`);
    const none = await govern(['plan', '--host', 'web2.example.org', ...s.common, s.states], { env: { GOVERN_FLEET_URL: '' } });
    expect(none.code).to.equal(1);
    expect(none.stderr).to.contain('--host needs --facts DIR');
  });

  it('diff plans every host of the inventory, grouped; --facts wins over the inventory', async () => {
    const s = site();
    const r = await govern(['diff', s.first, 'HEAD', 'states', ...s.common], { cwd: s.repo.dir, env: { GOVERN_FLEET_URL: nats.url } });
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(2);
    expect(r.stdout).to.contain('file:/etc/motd changed on 3 hosts: db1.example.org, web1.example.org, web2.example.org\n    contents: "db 10.0.0.5 workers 2" -> "db 10.0.0.5 workers 4"\n');

    const files = snapshots({ 'web7.example.org': { 'os/family': 'arch' }, 'db1.example.org': { 'os/family': 'debian', ip: '10.9.9.9' } });
    const own = await govern(['diff', s.first, 'HEAD', 'states', '--facts', files, '--json', ...s.common], { cwd: s.repo.dir, env: { GOVERN_FLEET_URL: nats.url } });
    expect(own.code, own.stderr).to.equal(2);
    expect(JSON.parse(own.stdout).hosts).to.deep.equal(['db1.example.org', 'web7.example.org']);
    const plan = await govern(['plan', '--json', '--facts', files, '--host', 'web7.example.org', '--fleet-url', nats.url, ...s.common, s.states]);
    expect(JSON.parse(plan.stdout).hosts[0].resources[1].attrs).to.deep.equal({ contents: 'db 10.9.9.9 workers 4' });
  });

  it('a fleet that cannot be read fails the diff, naming it', async () => {
    const s = site();
    const url = 'nats://127.0.0.1:1';
    const r = await govern(['diff', s.first, 'HEAD', 'states', '--fleet-url', url, '--fleet-timeout', '5s', ...s.common], { cwd: s.repo.dir });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^govern: the fleet's inventory at nats:\/\/127\.0\.0\.1:1: /);
  });
});
