// A run on a host whose `govern listen` is connected publishes through the listener's connection (a
// socket in the lock directory), and over its own connection when no listener answers: real
// listeners, real runs, a real nats-server; the server's own count of connections says which.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_RELAY_BYTES, parseRelayRequest } from '../../src/fleet/relay.js';
import { govern, GOVERN } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { writeFile } from '../support/tmp.js';
import { fleetHost, readKey, stderrOf } from './support.js';

/** The server's count of client connections ever accepted, from its monitoring endpoint. */
async function totalConnections(monitor: number): Promise<number> {
  const r = await fetch(`http://127.0.0.1:${monitor}/varz`);
  return ((await r.json()) as { total_connections: number }).total_connections;
}

describe('publishing through the listener', function () {
  this.timeout(120_000);
  let nats: NatsServer;
  let lockDir: string;
  let allowed: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    nats = await startNats('http: "127.0.0.1:-1"');
    lockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-relay-lock-'));
    const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-relay-keys-'));
    allowed = writeFile(path.join(keys, 'operators'), `${(await govern(['fleet', 'key', path.join(keys, 'op.nk')])).stdout.trim()}\n`);
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      c.kill('SIGTERM');
      if (c.exitCode === null) await new Promise((resolve) => c.once('exit', resolve));
    }
    await stopAllNats();
    fs.rmSync(lockDir, { recursive: true, force: true });
  });

  async function listenAs(name: string): Promise<void> {
    const child = spawn(GOVERN, ['listen', '--fleet-url', nats.url, '--fleet-name', name, '--allowed-keys', allowed, '--run-command', '/bin/true'], {
      env: { ...process.env, GOVERN_LOCK_DIR: lockDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    await stderrOf(child).said(`listening on govern.run.${name}`);
    while (!fs.existsSync(path.join(lockDir, 'fleet.sock'))) await new Promise((r) => setTimeout(r, 20));
  }

  const via = (varDir: string) => (JSON.parse(fs.readFileSync(path.join(varDir, 'fleet-publish.json'), 'utf8')) as { via?: string }).via;

  it("a run publishes through its listener: no connection of its own at the server; the socket is only its owner's, in the lock directory", async () => {
    const host = fleetHost('web1', nats.url, { role: 'web' });
    await listenAs('web1');
    expect(fs.lstatSync(path.join(lockDir, 'fleet.sock')).mode & 0o077).to.equal(0);
    const port = await monitorPort(nats);
    const before = await totalConnections(port);
    const r = await host.run([], { GOVERN_LOCK_DIR: lockDir });
    expect(r.code, r.stderr).to.equal(0);
    expect(via(host.varDir)).to.equal('listener');
    expect(await totalConnections(port)).to.equal(before);
    expect((await readKey<{ host: string }>(nats.url, 'govern_runs', 'web1'))?.host).to.equal('web1');
    expect((await readKey<{ facts: Record<string, string> }>(nats.url, 'govern_facts', 'web1'))?.facts.role).to.equal('web');
  });

  it("falls back to its own connection: no listener, a listener that will not relay this host's keys, or of another fleet", async () => {
    const host = fleetHost('web1', nats.url);
    const port = await monitorPort(nats);
    let before = await totalConnections(port);
    expect((await host.run([], { GOVERN_LOCK_DIR: lockDir })).code).to.equal(0);
    expect(via(host.varDir)).to.equal('own');
    expect(await totalConnections(port)).to.be.above(before);

    await listenAs('db1'); // the socket answers for db1 only
    before = await totalConnections(port);
    const r = await host.run([], { GOVERN_LOCK_DIR: lockDir });
    expect(r.code, r.stderr).to.equal(0);
    expect(via(host.varDir)).to.equal('own');
    expect(await totalConnections(port)).to.be.above(before);
    expect((await readKey<{ host: string }>(nats.url, 'govern_runs', 'web1'))?.host).to.equal('web1');

    // The listener of web1 is connected to this server; a run told of another fleet publishes there itself.
    await listenAs('web1');
    const other = await startNats();
    const elsewhere = fleetHost('web1', other.url);
    expect((await elsewhere.run([], { GOVERN_LOCK_DIR: lockDir })).code).to.equal(0);
    expect(via(elsewhere.varDir)).to.equal('own');
    expect((await readKey<{ host: string }>(other.url, 'govern_runs', 'web1'))?.host).to.equal('web1');
  });
});

describe('the relay socket: requests', () => {
  it('what the relay takes: one or two puts, into the two buckets, under this host\'s key alone, for the listener\'s fleet #once', () => {
    const URL = 'tls://nats.example.org:4222';
    const put = (o: object, url = URL) => JSON.stringify({ url, puts: [{ bucket: 'govern_runs', key: 'web1', value: '{}', ...o }] });
    expect(parseRelayRequest(put({}), 'web1', URL)).to.deep.equal([{ bucket: 'govern_runs', key: 'web1', value: '{}' }]);
    expect(parseRelayRequest(put({ key: 'db1' }), 'web1', URL)).to.equal("not this host's key: db1");
    expect(parseRelayRequest(put({ key: '>' }), 'web1', URL)).to.equal("not this host's key: >");
    expect(parseRelayRequest(put({ bucket: 'KV_other' }), 'web1', URL)).to.equal('not a fleet bucket: KV_other');
    expect(parseRelayRequest(put({ value: 3 }), 'web1', URL)).to.equal('a put without a value');
    expect(parseRelayRequest(put({}, 'nats://test:4222'), 'web1', URL)).to.equal('not the fleet this listener is connected to');
    expect(parseRelayRequest(`{"url": "${URL}", "puts": []}`, 'web1', URL)).to.equal('puts is not a list of one or two');
    expect(parseRelayRequest('nope', 'web1', URL)).to.equal('not JSON');
    expect(MAX_RELAY_BYTES).to.be.at.most(8 * 1024 * 1024);
  });
});

/** The monitoring port the server took ("http: 127.0.0.1:-1"): its listening socket other than the clients'. */
async function monitorPort(nats: NatsServer): Promise<number> {
  const inodes = new Set(fs.readdirSync(`/proc/${nats.pid}/fd`).flatMap((fd) => {
    const link = fs.readlinkSync(`/proc/${nats.pid}/fd/${fd}`);
    return /^socket:\[(\d+)\]$/.test(link) ? [link.slice(8, -1)] : [];
  }));
  const ports = fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 9 && f[3] === '0A' && inodes.has(f[9]))
    .map((f) => parseInt(f[1].split(':')[1], 16))
    .filter((p) => p !== nats.port);
  if (ports.length !== 1) throw new Error(`the monitoring port of nats-server ${nats.pid}: ${ports.join(', ') || 'none'}`);
  return ports[0];
}
