// The publishers' index of facts (src/fleet/fact-index.ts) against a real nats-server: `govern
// fleet --where` reads only the hosts the index names, a host whose fact changed moves, an entry
// that lies costs a read and selects nothing, and a fleet with a host that keeps no index (published
// by an older govern) is read whole. Hosts publish with the publishers' own code (putHostValues, as
// `govern listen` relays a run's values) or with `govern run`.
import { expect } from 'chai';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { entryPrefix, token } from '../../src/fleet/fact-index.js';
import { putHostValues } from '../../src/fleet/index-publish.js';
import { readByIndex } from '../../src/fleet/indexed-read.js';
import type { Condition } from '../../src/fleet/selection.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { fleet, fleetHost, putRaw, simulatedRun } from './support.js';

describe('fleet: the index of facts for --where', function () {
  this.timeout(120_000);
  let nats: NatsServer;
  let nc: NatsConnection;

  const publish = async (host: string, facts: Record<string, string>) => {
    const puts = [
      { bucket: 'govern_runs', key: host, value: JSON.stringify(simulatedRun(host)) },
      { bucket: 'govern_facts', key: host, value: JSON.stringify({ format: 1, host, at: new Date().toISOString(), facts: { fqdn: host, ...facts } }) },
    ];
    expect(await putHostValues(nc, host, puts, { deadline: Date.now() + 10_000 })).to.equal(undefined);
  };
  const where = (...texts: string[]): Condition[] => texts.map((t) => ({ fact: t.slice(0, t.indexOf('=')), value: t.slice(t.indexOf('=') + 1) }));
  const selected = async (...texts: string[]) => {
    const r = await fleet(nats.url, [...texts.flatMap((t) => ['--where', t]), '--json']);
    return (JSON.parse(r.stdout) as { hosts: { host: string }[] }).hosts.map((h) => h.host);
  };
  const candidates = async (...texts: string[]) => {
    const a = await readByIndex(nc, where(...texts), Date.now() + 10_000);
    return a.ok ? [...a.state.facts.keys()].sort() : a.why;
  };

  beforeEach(async () => {
    nats = await startNats();
    // The operators' first govern fleet makes the buckets, the index's too.
    expect((await fleet(nats.url)).code).to.equal(3);
    nc = await connect({ servers: nats.url });
    await publish('web1', { role: 'web', env: 'production' });
    await publish('web2', { role: 'web', env: 'staging' });
    await publish('db1', { role: 'db', env: 'production' });
  });
  afterEach(async () => {
    await nc.close();
    await stopAllNats();
  });

  it('selects the indexed hosts, every --where at once, and govern fleet shows them', async () => {
    expect(await candidates('role=web')).to.deep.equal(['web1', 'web2']);
    expect(await candidates('role=web', 'env=production')).to.deep.equal(['web1']);
    expect(await candidates('role=nothing')).to.deep.equal([]);
    expect(await selected('role=web')).to.deep.equal(['web1', 'web2']);
    expect(await selected('role=web', 'env=production')).to.deep.equal(['web1']);
    // A fact not indexed beside one that is: the index narrows, the real facts decide.
    expect(await candidates('role=web', 'fqdn=web2')).to.deep.equal(['web1', 'web2']);
    expect(await selected('role=web', 'fqdn=web2')).to.deep.equal(['web2']);
    // A host publishing with govern run keeps its entries too.
    const r = await fleetHost('web3', nats.url, { role: 'web', env: 'production' }).run();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.not.include('index');
    expect(await candidates('role=web', 'env=production')).to.deep.equal(['web1', 'web3']);
    expect(await selected('role=web', 'env=production')).to.deep.equal(['web1', 'web3']);
  });

  it('a value that is no subject token is encoded, and found', async () => {
    await publish('odd1', { role: 'web.front end/*>' });
    expect(await candidates('role=web.front end/*>')).to.deep.equal(['odd1']);
    expect(await candidates('role=web')).to.deep.equal(['web1', 'web2']);
    expect(await selected('role=web.front end/*>')).to.deep.equal(['odd1']);
  });

  it('a host whose fact changed moves: its old entry is deleted', async () => {
    await publish('web2', { role: 'db', env: 'staging' });
    // The stream still lists the deleted entry's subject (its delete marker): web2 is read, and not selected.
    expect(await candidates('role=web')).to.deep.equal(['web1', 'web2']);
    expect(await candidates('role=db')).to.deep.equal(['db1', 'web2']);
    const old = await (await new Kvm(nc).open('govern_index')).get(`${entryPrefix({ fact: 'role', value: 'web' })}web2`);
    expect(old?.operation).to.equal('DEL');
    expect(await selected('role=web')).to.deep.equal(['web1']);
    expect(await selected('role=db')).to.deep.equal(['db1', 'web2']);
  });

  it('an entry that lies costs a read of the host, and does not select it', async () => {
    await putRaw(nats.url, 'govern_index', `v.${token('role')}.${token('web')}.db1`, '1');
    expect(await candidates('role=web')).to.deep.equal(['db1', 'web1', 'web2']);
    expect(await selected('role=web')).to.deep.equal(['web1', 'web2']);
  });

  it('falls back to the whole fleet: a host that keeps no index, a fact not indexed, no index at all', async () => {
    // Published as an older govern did: facts and run, no entries, no marker.
    await putRaw(nats.url, 'govern_facts', 'web9', JSON.stringify({ format: 1, host: 'web9', at: new Date().toISOString(), facts: { role: 'web' } }));
    await putRaw(nats.url, 'govern_runs', 'web9', JSON.stringify(simulatedRun('web9')));
    expect(await candidates('role=web')).to.equal('1 host published no index');
    expect(await selected('role=web')).to.deep.equal(['web1', 'web2', 'web9']);
    expect(await candidates('site/rack=r1')).to.equal('site/rack is not indexed');
    const js = await new Kvm(nc).open('govern_indexed');
    await js.destroy();
    expect(await candidates('role=web')).to.equal('no index');
    expect(await selected('role=web')).to.deep.equal(['web1', 'web2', 'web9']);
  });
});
