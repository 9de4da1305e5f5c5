// A whole-fleet read larger than what nats-server lets a client fall behind (max_pending, 64 MiB by
// default), against a real nats-server: the snapshot's consumer has flow control, so the server
// waits for the reader instead of cutting its connection as a slow consumer (which left the read of
// 100,000 hosts without an answer: docs/fleet.md, "Measured: 100,000 hosts on one server").
import { expect } from 'chai';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { fleet, putHosts, simulatedRun } from './support.js';

/** 100 hosts of 800 kB of facts each: 80 MB, past the 64 MiB. */
const HOSTS = 100;
const BULK = 'x'.repeat(800 * 1024);

describe('fleet: a read of more than the server lets a client fall behind', function () {
  this.timeout(120_000);
  let nats: NatsServer;
  before(async () => {
    nats = await startNats();
    await putHosts(nats.url, Array.from({ length: HOSTS }, (_, i) => {
      const name = `host${String(i).padStart(3, '0')}.example.org`;
      return { name, facts: { role: i % 2 === 0 ? 'web' : 'db', bulk: BULK }, run: simulatedRun(name) };
    }));
  });
  after(stopAllNats);

  it('govern fleet answers for every host, and --where selects from all of them', async () => {
    const all = await fleet(nats.url, ['--json', '--fleet-timeout', '60s']);
    expect(all.code, all.stderr).to.equal(0);
    expect((JSON.parse(all.stdout) as { hosts: unknown[] }).hosts).to.have.length(HOSTS);
    const web = await fleet(nats.url, ['--json', '--fleet-timeout', '60s', '--where', 'role=web']);
    expect(web.code, web.stderr).to.equal(0);
    const hosts = (JSON.parse(web.stdout) as { hosts: { host: string }[] }).hosts.map((h) => h.host);
    expect(hosts).to.have.length(HOSTS / 2);
    expect(hosts[0]).to.equal('host000.example.org');
  });
});
