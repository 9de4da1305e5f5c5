// The nats-server configuration of examples/fleet/nats-server.conf (which docs/fleet.md shows), with
// TLS and per-host keys made by `govern fleet key`, on a real nats-server: a host publishes its own
// run, cannot overwrite another host's, reads the inventory for its templates, and cannot ask
// another host to run; the operator can.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import type { HostRun } from '../../src/fleet/host-record.js';
import { runCommand } from '../../src/shared/process.js';
import { govern, ROOT } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { writeFile } from '../support/tmp.js';
import { fleetHost } from './support.js';

const EXAMPLE = path.join(ROOT, 'examples', 'fleet', 'nats-server.conf');

async function must(command: string, args: string[], cwd: string): Promise<void> {
  const r = await runCommand(command, args, { cwd, timeoutMs: 60_000 });
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.stderr}`);
}

/** A CA and a certificate for 127.0.0.1 signed by it. */
async function certificates(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  await must('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=govern test CA', '-keyout', 'ca.key', '-out', 'ca.crt'], dir);
  await must('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr'], dir);
  writeFile(path.join(dir, 'ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await must('openssl', ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'ext', '-out', 'server.crt'], dir);
  return { ca: path.join(dir, 'ca.crt'), cert: path.join(dir, 'server.crt'), key: path.join(dir, 'server.key') };
}

/** The example with this test's certificate, keys and hosts; listen and jetstream come from startNats. */
function configuration(example: string, tls: { cert: string; key: string }, operator: string, hosts: Record<string, string>): string {
  const text = example
    .replace(/^listen: .*\n/m, '')
    .replace(/^jetstream \{[^}]*\}\n/m, '')
    .replace('/etc/nats-server/tls/server.crt', tls.cert)
    .replace('/etc/nats-server/tls/server.key', tls.key)
    .replace('UOPERATOR_PUBLIC_KEY', operator);
  const entry = /^( +# One entry per host[\s\S]*?\n +\} \}\n)/m.exec(text)![1];
  const entries = Object.entries(hosts).map(([host, key]) => entry.replace('UHOST_PUBLIC_KEY', key).replace(/HOST/g, host));
  return text.replace(entry, entries.join(''));
}

describe('fleet: permissions of the example nats-server configuration (TLS, per-host keys)', function () {
  this.timeout(300_000);
  let nats: NatsServer;
  let dir: string;
  let ca: string;
  const keyFile = (name: string) => path.join(dir, `${name}.nk`);
  const seed = (name: string) => new TextEncoder().encode(fs.readFileSync(keyFile(name), 'utf8').trim());
  const url = () => `tls://127.0.0.1:${nats.port}`;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-fleet-perm-'));
    const tls = await certificates(dir);
    ca = tls.ca;
    const key = async (name: string) => {
      const r = await govern(['fleet', 'key', keyFile(name)]);
      expect(r.code, r.stderr).to.equal(0);
      expect(fs.statSync(keyFile(name)).mode & 0o777).to.equal(0o600);
      return r.stdout.trim();
    };
    const operator = await key('operator');
    const hosts = { web1: await key('web1'), db1: await key('db1') };
    expect((await govern(['fleet', 'key', keyFile('web1')])).stderr).to.include('EEXIST');
    nats = await startNats(configuration(fs.readFileSync(EXAMPLE, 'utf8'), tls, operator, hosts));
    // The operator's first govern fleet makes the buckets.
    const first = await govern(['fleet', '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('operator')]);
    expect(first.code, first.stderr).to.equal(3);
  });
  after(async () => {
    await stopAllNats();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const hostRun = (name: string, as: string, facts: Record<string, string> = {}) => {
    const host = fleetHost(name, url(), facts);
    return host.run(['--fleet-ca', ca, '--fleet-creds', keyFile(as), '--fleet-name', name]);
  };
  const opsRead = async (key: string) => {
    const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('operator')) });
    try {
      const e = await (await new Kvm(nc).open('govern_runs')).get(key);
      return e ? e.json<HostRun>() : undefined;
    } finally {
      await nc.close();
    }
  };

  it('docs/fleet.md shows the example configuration as it is', () => {
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'fleet.md'), 'utf8')).to.include(fs.readFileSync(EXAMPLE, 'utf8'));
  });

  it('each host publishes its own run and facts over TLS with its own key', async () => {
    for (const [name, role] of [['db1', 'db'], ['web1', 'web']]) {
      const r = await hostRun(name, name, { role });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.not.include('not published');
    }
    expect((await opsRead('db1'))!.host).to.equal('db1');
    expect((await opsRead('web1'))!.host).to.equal('web1');
  });

  it("web1 cannot overwrite db1's record: through govern, or with the client directly", async () => {
    const before = await opsRead('db1');
    const r = await hostRun('db1', 'web1');
    expect(r.code).to.equal(0);
    expect(r.stderr).to.match(/the run was not published to the fleet: .*(Permissions Violation|permission|no answer)/i);
    const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('web1')), inboxPrefix: '_GOVERN_INBOX.web1' });
    try {
      const kv = await new Kvm(nc).open('govern_runs');
      let refused: Error | undefined;
      await kv.put('db1', '{"forged":true}', { timeout: 3_000 } as never).catch((e: Error) => (refused = e));
      expect(refused, 'the put was refused').to.not.equal(undefined);
    } finally {
      await nc.close();
    }
    expect(await opsRead('db1')).to.deep.equal(before);
  });

  it("web1's templates read the inventory with web1's key", async () => {
    const template = writeFile(path.join(dir, 'backends.hbs'), '{{#each (hosts "role=db")}}{{this.name}} {{/each}}{{hostfact "db1" "role"}}');
    const r = await govern(['render', template, '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('web1'), '--fleet-name', 'web1']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('db1 db');
  });

  it('web1 cannot ask db1 to run (nor itself); the operator can ask (no listener here: not listening)', async () => {
    const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('web1')), inboxPrefix: '_GOVERN_INBOX.web1' });
    try {
      let refused: Error | undefined;
      await nc.request('govern.run.db1', '{}', { timeout: 3_000 }).catch((e: Error) => (refused = e));
      expect(refused?.message ?? '').to.match(/permission|timeout|no responders/i);
    } finally {
      await nc.close();
    }
    const ops = await govern(['fleet', 'run', '--where', 'role=db', '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('operator')]);
    expect(ops.stdout).to.include('db1: FAILED: not listening');
  });

  it('without the CA the host refuses the server; without a key the server refuses the host', async () => {
    const noCa = await govern(['fleet', '--fleet-url', url(), '--fleet-creds', keyFile('operator')]);
    expect(noCa.code).to.equal(3);
    expect(noCa.stderr).to.match(/certificate/i);
    const noKey = await govern(['fleet', '--fleet-url', url(), '--fleet-ca', ca]);
    expect(noKey.code).to.equal(3);
    expect(noKey.stderr, noKey.stderr).to.match(/authori[sz]ation/i);
  });
});
