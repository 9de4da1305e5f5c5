// `govern fleet history HOST` and `govern fleet --changed-since` against a real nats-server: the runs
// bucket keeps each host's last runs (RUNS_HISTORY), read back oldest first, bounded and checked as
// untrusted; `govern fleet` still reads only each host's newest run.
import { expect } from 'chai';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { RUNS_HISTORY } from '../../src/fleet/settings.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { fleet, fleetHost, putHosts, simulatedRun } from './support.js';

/** Puts values under a key of the runs bucket as it is (govern made it), as a host's own client could. */
async function putRuns(url: string, key: string, values: string[]): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const kv = await new Kvm(nc).open('govern_runs');
    for (const v of values) await kv.put(key, v);
  } finally {
    await nc.close();
  }
}

describe('govern fleet history', () => {
  let nats: NatsServer;
  beforeEach(async () => {
    nats = await startNats();
  });
  afterEach(stopAllNats);

  it("a host's runs, oldest first, as a table and as JSON; --limit; govern fleet still shows each host once", async () => {
    const web1 = fleetHost('web1.example.org', nats.url, { role: 'web' });
    const web2 = fleetHost('web2.example.org', nats.url, { role: 'web' });
    for (let i = 0; i < 3; i++) expect((await web1.run()).code).to.equal(0);
    expect((await web2.run()).code).to.equal(0);
    expect((await web1.run(['--noop'])).code).to.equal(0); // not published: a noop run is no run of the fleet's

    const table = await fleet(nats.url, ['history', 'web1.example.org']);
    expect(table.code, table.stdout + table.stderr).to.equal(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^ENDED +RESULT +CHANGED +FAILED +RESOURCES +COMMIT +REVERTED +VERSION$/);
    expect(lines.slice(1).map((l) => l.split(/ +/).slice(1, 7).join(' '))).to.deep.equal(['ok 1 0 2 - -', 'ok 1 0 2 - -', 'ok 1 0 2 - -']);
    const ended = lines.slice(1).map((l) => l.split(' ')[0]);
    expect([...ended].sort()).to.deep.equal(ended);

    const json = await fleet(nats.url, ['history', 'web1.example.org', '--limit', '2', '--json']);
    expect(json.code).to.equal(0);
    const h = JSON.parse(json.stdout) as { host: string; kept: number; entries: { revision: number; run: { host: string; ended_at: string } }[] };
    expect(h.host).to.equal('web1.example.org');
    expect(h.kept).to.equal(RUNS_HISTORY);
    expect(h.entries.map((e) => e.run.ended_at)).to.deep.equal(ended.slice(1));
    expect(h.entries[0].revision).to.be.below(h.entries[1].revision);

    const all = await fleet(nats.url, ['--json']);
    const hosts = (JSON.parse(all.stdout) as { hosts: { host: string; run: { ended_at: string } }[] }).hosts;
    expect(hosts.map((x) => x.host)).to.deep.equal(['web1.example.org', 'web2.example.org']);
    expect(hosts[0].run.ended_at).to.equal(ended[2]);
  });

  it('what a host published is untrusted: at most what the bucket keeps, invalid values said, text escaped, reverted shown', async () => {
    await fleetHost('web1', nats.url).run(); // makes the buckets as govern does
    const run = (o: object) => JSON.stringify({ ...simulatedRun('evil'), ...o });
    const many = Array.from({ length: RUNS_HISTORY + 5 }, (_, i) => run({ commit: `c${String(i).padStart(3, '0')}` }));
    await putRuns(nats.url, 'evil', [...many, '{"not": "a run"', run({ commit: 'ab\x1b[2Jcd', reverted: { from: 'a'.repeat(40), to: 'b'.repeat(40), reason: 'health check "x" failed' } }), run({ reverted: 'f00d' })]);

    const r = await fleet(nats.url, ['history', 'evil', '--limit', '64']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).not.to.include('\x1b');
    const rows = r.stdout.split('\n\n')[0].trimEnd().split('\n').slice(1);
    expect(rows).to.have.length(RUNS_HISTORY);
    expect(rows.at(-3)).to.match(/ invalid /);
    expect(rows.at(-2)).to.match(/ ab\\x1b\[2Jcd +aaaaaaa->bbbbbbb /);
    // A `reverted` that is not {from, to, reason} makes the record invalid (rollout-fields.ts).
    expect(rows.at(-1)).to.match(/ invalid /);
    expect(r.stdout.split('\n\n')[1]).to.match(/: its published run: not JSON\n.*: its published run: reverted is not \{from, to, reason\} with whole commit ids\n$/);
    // The oldest kept is the one RUNS_HISTORY before the last: the server keeps no more.
    expect(rows[0]).to.include(`c${String(5 + 3).padStart(3, '0')}`);

    const limited = await fleet(nats.url, ['history', 'evil', '--limit', '1']);
    expect(limited.stdout.split('\n\n')[0].trimEnd().split('\n')).to.have.length(2);
  });

  it('a host without runs, a name that cannot be a key, --limit elsewhere: exit 1, said', async () => {
    await fleetHost('web1', nats.url).run();
    const none = await fleet(nats.url, ['history', 'db9']);
    expect(none.code).to.equal(1);
    expect(none.stdout).to.equal("no run of db9 is in the fleet's history\n");
    const bad = await fleet(nats.url, ['history', 'a b']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.include('"a b" cannot be a fleet host name');
    const misplaced = await fleet(nats.url, ['--limit', '3']);
    expect(misplaced.code).to.equal(3);
    expect(misplaced.stderr).to.include('--limit goes with govern fleet history');
    const usage = await fleet(nats.url, ['history']);
    expect(usage.code).to.equal(1);
    expect(usage.stderr).to.include('usage: govern fleet history HOST');
  });

  it('a bucket made with one value per key (before history): the last run, and kept 1', async () => {
    await putHosts(nats.url, [{ name: 'web1', facts: {}, run: simulatedRun('web1') }]);
    await putRuns(nats.url, 'web1', [JSON.stringify(simulatedRun('web1', { commit: 'second' }))]);
    const r = await fleet(nats.url, ['history', 'web1', '--json']);
    const h = JSON.parse(r.stdout) as { kept: number; entries: { run: { commit: string } }[] };
    expect(h.kept).to.equal(1);
    expect(h.entries.map((e) => e.run.commit)).to.deep.equal(['second']);
  });
});

describe('govern fleet --changed-since', () => {
  let nats: NatsServer;
  beforeEach(async () => {
    nats = await startNats();
  });
  afterEach(stopAllNats);

  it("only the hosts whose last run changed something within the duration, with --where too", async () => {
    await putHosts(nats.url, [
      { name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { changed: 2, endedAgoMs: 10 * 60_000 }) },
      { name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { changed: 0, endedAgoMs: 10 * 60_000 }) },
      { name: 'web3', facts: { role: 'web' }, run: simulatedRun('web3', { changed: 3, endedAgoMs: 3 * 3600_000 }) },
      { name: 'db1', facts: { role: 'db' }, run: simulatedRun('db1', { changed: 1, endedAgoMs: 60_000 }) },
      { name: 'db2', facts: { role: 'db' } },
    ]);
    const hostsOf = (stdout: string) => (JSON.parse(stdout) as { hosts: { host: string }[] }).hosts.map((h) => h.host);
    expect(hostsOf((await fleet(nats.url, ['--changed-since', '1h', '--json'])).stdout)).to.deep.equal(['db1', 'web1']);
    expect(hostsOf((await fleet(nats.url, ['--changed-since', '4h', '--json', '--max-age', '4h'])).stdout)).to.deep.equal(['db1', 'web1', 'web3']);
    const web = await fleet(nats.url, ['--changed-since', '1h', '--where', 'role=web']);
    expect(web.code).to.equal(0);
    expect(web.stdout.split('\n').slice(2, -1).map((l) => l.split(' ')[0])).to.deep.equal(['web1']);
    const none = await fleet(nats.url, ['--changed-since', '1m', '--where', 'role=web']);
    expect(none.code).to.equal(3);
    expect(none.stdout).to.match(/^GOVERN FLEET UNKNOWN - no host matches whose last run changed something within 1m \|/);
    const watch = await fleet(nats.url, ['--changed-since', '1h', '--watch']);
    expect(watch.code).to.equal(3);
    expect(watch.stderr).to.include('--changed-since does not go with --watch');
  });
});
