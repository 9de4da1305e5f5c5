// The template helper `hosts "role=web"` and `govern fleet run --where` select through the
// publishers' index of facts by the rule `govern fleet --where` follows (src/fleet/indexed-selection.ts),
// against a real nats-server. That they answer from the index shows in a host whose entry was removed
// behind govern's back: it is not read. An entry that lies is not selected (the real facts are
// checked), and an index that is incomplete by count, or that finds no host, gives way to the whole
// read, which answers right.
import { expect } from 'chai';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { entryPrefix, token } from '../../src/fleet/fact-index.js';
import { putHostValues } from '../../src/fleet/index-publish.js';
import { govern } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { fleetRun, listener, stopListeners } from './listeners.js';
import { fleet, fleetHost, putRaw, simulatedRun } from './support.js';

describe('fleet: hosts and govern fleet run select through the index of facts', function () {
  this.timeout(300_000);
  let nats: NatsServer;
  let nc: NatsConnection;

  const publish = async (host: string, facts: Record<string, string>) => {
    const puts = [
      { bucket: 'govern_runs', key: host, value: JSON.stringify(simulatedRun(host)) },
      { bucket: 'govern_facts', key: host, value: JSON.stringify({ format: 1, host, at: new Date().toISOString(), facts: { fqdn: host, ...facts } }) },
    ];
    expect(await putHostValues(nc, host, puts, { deadline: Date.now() + 10_000 })).to.equal(undefined);
  };
  /**
   * Removes every trace of the host's entry under FACT=VALUE from the stream (a KV delete would leave its
   * subject listed), and leaves its marker: only a read of the index misses the host.
   */
  const unindex = async (host: string, fact: string, value: string) => {
    await (await jetstreamManager(nc)).streams.purge('KV_govern_index', { filter: `$KV.govern_index.${entryPrefix({ fact, value })}${host}` });
  };
  const lie = (host: string, fact: string, value: string) => putRaw(nats.url, 'govern_index', `v.${token(fact)}.${token(value)}.${host}`, '1');
  const render = async (template: string) => {
    const file = writeFile(path.join(tempDir(), 't.hbs'), template);
    const r = await govern(['render', file, '--fleet-url', nats.url]);
    expect(r.code, r.stderr).to.equal(0);
    return r.stdout;
  };
  const HOSTS = '{{#each (hosts "role=web")}}{{this.name}} {{/each}}';
  const noopRun = async (where: string) => {
    const r = await fleetRun(nats.url, ['--where', where, '--noop']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    return r.stdout;
  };
  const fleetWhere = async (where: string) => {
    const r = await fleet(nats.url, ['--where', where, '--json']);
    return (JSON.parse(r.stdout) as { hosts: { host: string }[] }).hosts.map((h) => h.host);
  };

  beforeEach(async () => {
    nats = await startNats();
    // The operators' first govern fleet makes the buckets, the index's too.
    expect((await fleet(nats.url)).code).to.equal(3);
    nc = await connect({ servers: nats.url });
    await publish('web1', { role: 'web', env: 'production' });
    await publish('web2', { role: 'web', env: 'production' });
    await publish('web3', { role: 'web', env: 'staging' });
    await publish('db1', { role: 'db', env: 'production' });
  });
  afterEach(async () => {
    await stopListeners();
    await nc.close();
    await stopAllNats();
  });

  it('hosts and govern fleet run --noop read only the indexed hosts, as govern fleet --where: an entry removed is not read, an entry that lies is not selected', async () => {
    expect(await render(HOSTS)).to.equal('web1 web2 web3 ');
    await unindex('web2', 'role', 'web');
    await lie('db1', 'role', 'web');
    expect(await render(HOSTS)).to.equal('web1 web3 ');
    // Several selections in one template, each through the index; a fact not indexed is checked on the hosts the index names.
    expect(await render('{{#each (hosts "env=production" "role=web")}}{{this.name}} {{/each}}| {{#each (hosts "role=db")}}{{this.name}}{{/each}} | {{#each (hosts "role=web" "fqdn=web3")}}{{this.name}}{{/each}}')).to.equal(
      'web1 | db1 | web3',
    );
    expect(await noopRun('role=web')).to.equal('batch 1 of 1: web1, web3\nwould ask 2 hosts to run (--noop: none asked)\n');
    expect(await fleetWhere('role=web')).to.deep.equal(['web1', 'web3']);
  });

  it('an index incomplete by count, or that selects no host, gives way to the whole read, which answers right', async () => {
    // A selection the index finds empty (cache1's entry gone, the count still complete) is read whole.
    await publish('cache1', { role: 'cache' });
    await unindex('cache1', 'role', 'cache');
    expect(await render('{{#each (hosts "role=cache")}}{{this.name}}{{/each}}')).to.equal('cache1');
    expect(await noopRun('role=cache')).to.equal('batch 1 of 1: cache1\nwould ask 1 host to run (--noop: none asked)\n');
    // A host published by an older govern (facts, no entries, no marker): the index cannot answer for every host.
    await unindex('web2', 'role', 'web');
    await putRaw(nats.url, 'govern_facts', 'web9', JSON.stringify({ format: 1, host: 'web9', at: new Date().toISOString(), facts: { role: 'web' } }));
    expect(await render(HOSTS)).to.equal('web1 web2 web3 web9 ');
    expect(await noopRun('role=web')).to.equal('batch 1 of 1: web1, web2, web3, web9\nwould ask 4 hosts to run (--noop: none asked)\n');
    // No selection at all is every host, as before.
    expect(await render('{{#each (hosts)}}{{this.name}} {{/each}}')).to.equal('cache1 db1 web1 web2 web3 web9 ');
  });

  it('a selection of more than a quarter of the hosts (and more than 500) is read whole', async () => {
    const names = Array.from({ length: 510 }, (_, i) => `app${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 50) await Promise.all(names.slice(i, i + 50).map((name) => publish(name, { role: 'app' })));
    await unindex('app007', 'role', 'app');
    const apps = await render('{{#each (hosts "role=app")}}{{this.name}} {{/each}}');
    expect(apps.trim().split(' ')).to.deep.equal(names);
    expect(await noopRun('role=app')).to.match(/^batch 1 of 1: app000, .*app007, .*\nwould ask 510 hosts to run/);
  });

  it('govern fleet run asks only the hosts the index selects whose facts match, through their listeners', async () => {
    const hosts = ['web1', 'web2', 'db1'].map((name) => fleetHost(name, nats.url, { role: name.startsWith('web') ? 'web' : 'db' }, { 'a.hcl': 'pkg "a" {\n  changed = true\n}\n' }));
    for (const h of hosts) await listener(h, nats.url);
    await unindex('web2', 'role', 'web');
    await unindex('web3', 'role', 'web');
    await lie('db1', 'role', 'web');
    const r = await fleetRun(nats.url, ['--where', 'role=web']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^batch 1 of 1: web1\nweb1: ok, 1 changed\nevery selected host \(1\) ran successfully\n$/);
    expect(hosts[1].tree.calls()).to.deep.equal([]);
    expect(hosts[2].tree.calls()).to.deep.equal([]);
  });
});
