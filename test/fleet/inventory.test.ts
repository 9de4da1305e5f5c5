// Templates over the fleet's inventory, against a real nats-server: `hosts` lists the hosts by fact,
// sorted, without those that stopped reporting; `hostfact` reads the inventory instead of ssh, and
// falls back to ssh only when told to.
import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { putHosts } from './support.js';
import { connect } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';

const BACKENDS = '{{#each (hosts "role=web" "env=production")}}server {{this.name}} {{lookup this.facts "network/primary/ip"}};\n{{/each}}';

describe('fleet: the inventory in templates #once', () => {
  let nats: NatsServer;
  let dir: string;
  const render = (template: string, extra: string[] = []) => {
    const file = writeFile(path.join(dir, `t${Math.random().toString(36).slice(2)}.hbs`), template);
    return govern(['render', file, '--fleet-url', nats.url, '--ssh', path.join(dir, 'no-ssh'), ...extra]);
  };
  beforeEach(async () => {
    nats = await startNats();
    dir = tempDir();
    // Any ssh would fail the test loudly: the inventory must be read without one.
    shRunner(dir, 'no-ssh', 'echo "ssh was called: $*" >&2; exit 255');
    await putHosts(nats.url, [
      { name: 'web2.example.org', facts: { role: 'web', env: 'production', 'network/primary/ip': '10.0.0.2' } },
      { name: 'web10.example.org', facts: { role: 'web', env: 'production', 'network/primary/ip': '10.0.0.10' } },
      { name: 'web1.example.org', facts: { role: 'web', env: 'production', 'network/primary/ip': '10.0.0.1' } },
      { name: 'web9.example.org', facts: { role: 'web', env: 'staging', 'network/primary/ip': '10.0.1.9' } },
      { name: 'db1.example.org', facts: { role: 'db', env: 'production', 'network/primary/ip': '10.0.2.1' } },
    ]);
  });
  afterEach(stopAllNats);

  it('hosts: every host with all the facts given, sorted by name, the same on every render', async () => {
    const r = await render(BACKENDS);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(
      'server web1.example.org 10.0.0.1;\nserver web10.example.org 10.0.0.10;\nserver web2.example.org 10.0.0.2;\n',
    );
    expect((await render(BACKENDS)).stdout).to.equal(r.stdout);
    expect((await render('{{#each (hosts)}}{{this.name}} {{/each}}')).stdout).to.equal(
      'db1.example.org web1.example.org web10.example.org web2.example.org web9.example.org ',
    );
  });

  it('hosts: a host whose facts are older than --inventory-max-age is left out', async () => {
    const nc = await connect({ servers: nats.url });
    const kv = await new Kvm(nc).open('govern_facts');
    const old = { format: 1, host: 'web3.example.org', at: new Date(Date.now() - 2 * 86400_000).toISOString(), facts: { role: 'web', env: 'production', 'network/primary/ip': '10.0.0.3' } };
    await kv.put('web3.example.org', JSON.stringify(old));
    await nc.close();
    expect((await render(BACKENDS)).stdout).to.not.include('web3');
    expect((await render(BACKENDS, ['--inventory-max-age', '72h'])).stdout).to.include('server web3.example.org 10.0.0.3;\n');
  });

  it("hosts and hostfact: a host whose published facts are malformed is left out, and the rest of the fleet is listed", async () => {
    const nc = await connect({ servers: nats.url });
    const kv = await new Kvm(nc).open('govern_facts');
    const facts = { role: 'web', env: 'production', 'network/primary/ip': '10.0.0.4' };
    await kv.put('web4.example.org', JSON.stringify({ format: 1, host: 'web4.example.org', at: new Date().toISOString(), facts: { ...facts, a: { a: 1 } } }));
    await kv.put('web5.example.org', JSON.stringify({ format: 1, host: 'web5.example.org', at: '2099-01-01T00:00:00Z', facts }));
    await kv.put('web6.example.org', JSON.stringify({ format: 1, host: 'web6.example.org', at: 'not a date', facts }));
    await kv.put('web7.example.org', JSON.stringify({ format: 1, host: 'db1.example.org', at: new Date().toISOString(), facts }));
    await nc.close();
    const r = await render(BACKENDS, ['--inventory-max-age', '100000h']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('server web1.example.org 10.0.0.1;\nserver web10.example.org 10.0.0.10;\nserver web2.example.org 10.0.0.2;\n');
    const one = await render('{{hostfact "web4.example.org" "role"}}');
    expect(one.code).to.equal(1);
    expect(one.stderr).to.include("web4.example.org is not in the fleet's inventory");
  });

  it('hosts: an argument that is not FACT=VALUE, and no fleet configured, are errors naming the template and line', async () => {
    const bad = await render('a\n{{#each (hosts "role")}}{{/each}}');
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/\.hbs:2: .*hosts: "role" is not FACT=VALUE/);
    const file = writeFile(path.join(dir, 'none.hbs'), BACKENDS);
    const none = await govern(['render', file], { env: { GOVERN_FLEET_URL: '' } });
    expect(none.code).to.equal(1);
    expect(none.stderr).to.include('hosts: no fleet inventory is configured');
  });

  it('hosts: the fleet down is an error naming the template, within the time limit', async () => {
    await nats.stop();
    const r = await render(BACKENDS, ['--fleet-timeout', '2s']);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/\.hbs:1: .*hosts: the fleet's inventory at nats:\/\/127\.0\.0\.1:\d+: /);
  });

  it('hostfact reads the inventory (no ssh); a host not in it is an error naming the host', async () => {
    const r = await render('{{hostfact "db1.example.org" "network/primary/ip"}}');
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('10.0.2.1');
    const missing = await render('x\n{{hostfact "mail1.example.org" "network/primary/ip"}}');
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.match(/:2: .*mail1\.example\.org is not in the fleet's inventory/);
    expect(missing.stderr).to.not.include('ssh was called');
  });

  it('--hostfact-source fleet-then-ssh: ssh (a fake ssh command) only for the host the inventory lacks; ssh: never the inventory', async () => {
    const fallback = await render('{{hostfact "db1.example.org" "network/primary/ip"}} {{hostfact "mail1.example.org" "os/name"}}', ['--hostfact-source', 'fleet-then-ssh']);
    expect(fallback.code).to.equal(1);
    expect(fallback.stderr).to.include('ssh was called');
    expect(fallback.stderr).to.include('mail1.example.org');
    expect(fallback.stderr).to.not.match(/ssh was called.*db1/);
    const ssh = await render('{{hostfact "db1.example.org" "network/primary/ip"}}', ['--hostfact-source', 'ssh']);
    expect(ssh.code).to.equal(1);
    expect(ssh.stderr).to.match(/ssh was called.*db1\.example\.org/);
  });
});
