// The nats-server configuration of examples/fleet/nats-server.conf (which docs/fleet.md shows), with
// TLS and per-host keys made by `govern fleet key`, on a real nats-server: a host publishes its own
// run, cannot overwrite another host's, reads the inventory for its templates and every host's run
// for a staged rollout's gate, and cannot ask another host to run; the operator can.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { AckPolicy, DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import { requestSigner } from '../../src/fleet/request-signature.js';
import type { HostRun } from '../../src/fleet/host-record.js';
import { entryPrefix } from '../../src/fleet/fact-index.js';
import { runCommand } from '../../src/shared/process.js';
import { govern, GOVERN, ROOT, TEST_VAR_DIR } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { writeFile } from '../support/tmp.js';
import { gitLab } from '../pull/git-lab.js';
import { fleetHost, simulatedRun, stderrOf } from './support.js';

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
  let operatorKey: string;
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
    operatorKey = operator;
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

  /** web1's own client puts a forged record under db1 (after `read`, with the same client): refused, db1's record unchanged. */
  const forgedPutOfDb1Refused = async (read?: (kv: Awaited<ReturnType<Kvm['open']>>) => Promise<void>) => {
    const before = await opsRead('db1');
    const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('web1')), inboxPrefix: '_GOVERN_INBOX.web1' });
    try {
      const kv = await new Kvm(nc).open('govern_runs');
      await read?.(kv);
      let refused: Error | undefined;
      await kv.put('db1', '{"forged":true}', { timeout: 3_000 } as never).catch((e: Error) => (refused = e));
      expect(refused, 'the put was refused').to.not.equal(undefined);
    } finally {
      await nc.close();
    }
    expect(await opsRead('db1')).to.deep.equal(before);
  };

  it('docs/fleet.md shows the example configuration as it is', () => {
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'fleet.md'), 'utf8')).to.include(fs.readFileSync(EXAMPLE, 'utf8'));
  });

  it('each host publishes its own run and facts over TLS with its own key', async () => {
    for (const [name, role] of [['db1', 'db'], ['web1', 'web']]) {
      const r = await hostRun(name, name, { role });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.not.include('not published');
      expect(r.stderr, r.stderr).to.not.include("index of this host was not kept");
    }
    expect((await opsRead('db1'))!.host).to.equal('db1');
    // Their index entries and markers, put with the hosts' own keys.
    const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('operator')) });
    try {
      expect((await (await new Kvm(nc).open('govern_indexed')).get('web1'))?.json<{ entries: string[] }>().entries).to.include(`${entryPrefix({ fact: 'role', value: 'web' })}web1`);
      expect((await (await new Kvm(nc).open('govern_index')).get(`${entryPrefix({ fact: 'role', value: 'db' })}db1`))?.operation).to.equal('PUT');
    } finally {
      await nc.close();
    }
    expect((await opsRead('web1'))!.host).to.equal('web1');
  });

  it("web1 cannot overwrite db1's record: through govern, or with the client directly", async () => {
    const before = await opsRead('db1');
    const r = await hostRun('db1', 'web1');
    expect(r.code).to.equal(0);
    expect(r.stderr).to.match(/the run was not published to the fleet: .*(Permissions Violation|permission|no answer)/i);
    await forgedPutOfDb1Refused();
    expect(await opsRead('db1')).to.deep.equal(before);
  });

  it("web1 cannot put or delete an index entry or marker of db1's, nor make one for itself under another host's name", async () => {
    const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('web1')), inboxPrefix: '_GOVERN_INBOX.web1' });
    const refused = async (work: Promise<unknown>) => {
      let e: Error | undefined;
      await work.catch((err: Error) => (e = err));
      expect(e, 'refused').to.not.equal(undefined);
    };
    try {
      const index = await new Kvm(nc).open('govern_index');
      await refused(index.put(`${entryPrefix({ fact: 'role', value: 'web' })}db1`, '1', { timeout: 3_000 } as never));
      await refused(index.delete(`${entryPrefix({ fact: 'role', value: 'db' })}db1`, { timeout: 3_000 } as never));
      await refused(index.put(`${entryPrefix({ fact: 'role', value: 'web' })}web1.db1`, '1', { timeout: 3_000 } as never));
      await refused((await new Kvm(nc).open('govern_indexed')).put('db1', '{"format":1,"entries":[]}', { timeout: 3_000 } as never));
      // Its own entry it may put: what it says of itself, which readers check against its facts.
      await index.put(`${entryPrefix({ fact: 'role', value: 'lb' })}web1`, '1');
    } finally {
      await nc.close();
    }
    const ops = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('operator')) });
    try {
      const index = await new Kvm(ops).open('govern_index');
      expect((await index.get(`${entryPrefix({ fact: 'role', value: 'db' })}db1`))?.operation).to.equal('PUT');
      expect(await index.get(`${entryPrefix({ fact: 'role', value: 'web' })}db1`)).to.equal(null);
    } finally {
      await ops.close();
    }
  });

  it("web1's templates read the inventory with web1's key", async () => {
    const template = writeFile(path.join(dir, 'backends.hbs'), '{{#each (hosts "role=db")}}{{this.name}} {{/each}}{{hostfact "db1" "role"}}');
    const r = await govern(['render', template, '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('web1'), '--fleet-name', 'web1']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('db1 db');
  });

  it("web1's pull reads every host's run for a staged rollout's gate with web1's key, and still cannot write db1's", async () => {
    const lab = await gitLab();
    const rollout = 'stages = [\n  { where = "role=db" },\n  {},\n]\n';
    await lab.commit({ 'a.hcl': 'pkg "p1" {}\n', 'rollout.hcl': rollout }, 'unsigned');
    const states = path.join(dir, 'web1-pulled', 'states');
    const pull = () =>
      govern(['pull', '--var-dir', path.join(dir, 'web1-pulled', 'var'), '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('web1'), '--fleet-name', 'web1', lab.bare, states], {
        env: { GOVERN_FLEET_URL: '' },
      });
    const first = await pull();
    expect(first.code, first.stderr).to.equal(0);
    const next = await lab.commit({ 'a.hcl': 'pkg "p2" {}\n', 'rollout.hcl': rollout }, 'unsigned');
    // The gate read db1's record (its run of no commit): web1, of the last stage, waits for it.
    const held = await pull();
    expect(held.code, held.stderr).to.equal(0);
    expect(held.stdout).to.match(new RegExp(`${next} held: .*waiting for db1 to run commit ${next} healthy\n$`));
    const ops = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('operator')) });
    try {
      await (await new Kvm(ops).open('govern_runs')).put('db1', JSON.stringify({ ...simulatedRun('db1', { commit: next, endedAgoMs: 0 }), health: { passed: 1, failed: 0, failures: [] } }));
    } finally {
      await ops.close();
    }
    const moved = await pull();
    expect(moved.code, moved.stderr).to.equal(0);
    expect(path.basename(fs.realpathSync(states))).to.equal(next);
    // Reading is all the runs bucket allows web1: db1's key stays db1's.
    await forgedPutOfDb1Refused(async (kv) => {
      expect((await kv.get('db1'))?.json<HostRun>().commit).to.equal(next);
    });
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

  it("web1 cannot start a run on db1 through a push consumer delivering to govern.run.db1: db1's listener takes only signed requests", async () => {
    // db1's listener as docs/fleet.md sets it up: its own key, the operators' public keys.
    const allowed = writeFile(path.join(dir, 'fleet-operators'), `# the operators\n${operatorKey}\n`);
    const started = path.join(dir, 'db1-started');
    const runCommand = writeFile(path.join(dir, 'db1-start'), `#!/bin/sh\necho started >> ${started}\n`, 0o755);
    const child = spawn(GOVERN, ['listen', '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('db1'), '--fleet-name', 'db1', '--allowed-keys', allowed, '--run-command', runCommand], {
      env: { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const { said, text } = stderrOf(child);
    try {
      await said('listening on govern.run.db1 at ');
      // web1, with the documented permissions: its own facts key holds a run request, signed with
      // its own key for db1, and a push consumer of the facts bucket delivers it to govern.run.db1.
      const nc = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('web1')), inboxPrefix: '_GOVERN_INBOX.web1' });
      try {
        const forged = requestSigner(keyFile('web1'))({ format: 1, id: 'forged', requested_at: new Date().toISOString(), by: 'root@db1' }, 'db1');
        await (await new Kvm(nc).open('govern_facts')).put('web1', JSON.stringify(forged));
        const jsm = await jetstreamManager(nc, { checkAPI: false });
        const consumer = await jsm.consumers.add('KV_govern_facts', {
          name: 'attack',
          deliver_subject: 'govern.run.db1',
          deliver_policy: DeliverPolicy.LastPerSubject,
          ack_policy: AckPolicy.None,
          filter_subject: '$KV.govern_facts.web1',
        });
        // The permissions let web1 make it (no NATS permission names a consumer's deliver subject)...
        expect(consumer.config.deliver_subject).to.equal('govern.run.db1');
        // ...and the server delivers it; the listener does not take it for a request.
        await said('ignored a message on govern.run.db1 that is no request (delivered by a JetStream consumer)');
      } finally {
        await nc.close();
      }
      // An operator's signed request is honoured: the listener works, and only that started a run.
      const ops = await connect({ servers: url(), tls: { caFile: ca }, authenticator: nkeyAuthenticator(seed('operator')) });
      try {
        const signed = requestSigner(keyFile('operator'))({ format: 1, id: 'by-operator', requested_at: new Date().toISOString(), by: 'ops' }, 'db1');
        const reply = (await ops.request('govern.run.db1', JSON.stringify(signed), { timeout: 60_000 })).json<{ accepted: boolean }>();
        expect(reply.accepted, JSON.stringify(reply)).to.equal(true);
      } finally {
        await ops.close();
      }
      expect(fs.readFileSync(started, 'utf8')).to.equal('started\n');
      expect(text()).to.not.include('request forged');
    } finally {
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : (child.once('exit', resolve), child.kill('SIGTERM'))));
    }
  });

  it('without the CA the host refuses the server; without a key the server refuses the host', async () => {
    const noCa = await govern(['fleet', '--fleet-url', url(), '--fleet-creds', keyFile('operator')]);
    expect(noCa.code).to.equal(3);
    expect(noCa.stderr).to.match(/certificate/i);
    const noKey = await govern(['fleet', '--fleet-url', url(), '--fleet-ca', ca]);
    expect(noKey.code).to.equal(3);
    expect(noKey.stderr, noKey.stderr).to.match(/authori[sz]ation/i);
  });

  it('a seed file others can read is refused, as ssh refuses such a private key: for --fleet-creds and --sign-key', async () => {
    const open = path.join(dir, 'open.nk');
    fs.copyFileSync(keyFile('operator'), open);
    fs.chmodSync(open, 0o644);
    const r = await govern(['fleet', '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', open]);
    expect(r.code).to.equal(3);
    expect(r.stderr).to.include(`refusing the fleet credentials ${open}: it is readable by anyone (mode 0644; chmod go= ${open})`);
    fs.chmodSync(open, 0o640);
    const sign = await govern(['fleet', 'run', '--where', 'role=db', '--fleet-url', url(), '--fleet-ca', ca, '--fleet-creds', keyFile('operator'), '--sign-key', open]);
    expect(sign.code).to.equal(1);
    expect(sign.stderr).to.include(`refusing the signing key ${open}: it is readable by its group (mode 0640`);
    const publish = await hostRun('web1', 'web1');
    expect(publish.code, publish.stderr).to.equal(0);
    fs.chmodSync(keyFile('web1'), 0o604);
    try {
      const refused = await hostRun('web1', 'web1');
      expect(refused.code).to.equal(0);
      expect(refused.stderr).to.include('the run was not published to the fleet: refusing the fleet credentials');
    } finally {
      fs.chmodSync(keyFile('web1'), 0o600);
    }
  });
});
