// The whole fleet journey as a new user walks it, with examples/fleet as it ships: a git repository
// of the tree, a plan for every host, the CI recipe (ci/govern-diff) between two commits as root,
// three simulated hosts (hosts.ts: private namespaces, each with its own /etc, facts and SSH host key)
// that run it for real and publish to a real nats-server, `govern fleet`, `govern fleet run --batch`
// through each host's `govern listen`, a rotated secret, a host removed from a group and rekeyed,
// a value's label edited to give it to another group (caught by the preview, corrected by rekey),
// and a misspelt role. Real age, git and nats-server; pkg and service are recorded, not installed
// (nginx and postgresql would be).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { govern, ROOT } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer, NATS_SERVER } from '../support/nats.js';
import { recordingRunner } from '../support/recording-runner.js';
import { skipBecause } from '../support/tools.js';
import { writeFile } from '../support/tmp.js';
import { stderrOf } from '../fleet/support.js';
import { journeyDir, removeJourneyDirs, runsEnded, runStarter, startHost, type SimulatedHost } from './hosts.js';

const FLEET = path.join(ROOT, 'examples', 'fleet');
const HOSTS = ['db1', 'web1', 'web2'];

describe('the fleet journey: examples/fleet from a git repository to three hosts and back (pkg and service recorded, not installed)', function () {
  this.timeout(600_000);
  let repo: string;
  let nats: NatsServer;
  const hosts: SimulatedHost[] = [];
  const env = { PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` };

  const git = async (...args: string[]) => {
    const r = await runCommand('git', ['-c', 'user.name=Admin', '-c', 'user.email=admin@example.org', ...args], { cwd: repo });
    expect(r.code, r.stderr).to.equal(0);
    return r.stdout;
  };
  const edit = (file: string, from: string, to: string) => {
    const text = fs.readFileSync(path.join(repo, file), 'utf8');
    expect(text, file).to.contain(from);
    fs.writeFileSync(path.join(repo, file), text.replace(from, to));
  };
  const ci = () => runCommand(path.join(repo, 'ci', 'govern-diff'), ['HEAD~1'], { cwd: repo, env: { ...process.env, ...env } });
  const admin = () => path.join(repo, 'test-keys', 'admin.TEST-ONLY.agekey');
  const host = (name: string) => hosts.find((h) => h.name === name)!;
  const hostRun = (h: SimulatedHost, fakes: string) => ['run', repo, '--runners-dir', fakes, '--facts-dir', h.facts, '--fleet-url', nats.url];
  const read = (h: SimulatedHost, file: string) => h.read(path.join('/etc', file));

  before(async function () {
    if (!fs.existsSync(NATS_SERVER)) skipBecause(this, `${NATS_SERVER} is missing (Debian's nats-server package)`);
    repo = journeyDir('govern-journey-repo-');
    fs.cpSync(FLEET, repo, { recursive: true });
    // The README's step for real hosts: the example writes under /tmp/govern-fleet until root = "".
    edit('data/common.hcl', 'root = "/tmp/govern-fleet"', 'root = ""');
    await git('init', '-q', '-b', 'main');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'the fleet');
    nats = await startNats();
  });
  after(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    await stopAllNats();
    removeJourneyDirs();
  });

  it('plans every host from its snapshot, without any host key: the secrets stand for <sensitive>', async () => {
    const r = await govern(['plan', '--facts', 'snapshots/', '--json', '.'], { cwd: repo });
    expect(r.code, r.stderr).to.equal(0);
    const plans = JSON.parse(r.stdout).hosts as { host: string; resources: { ref: string; attributes: Record<string, unknown> }[] }[];
    expect(plans.map((p) => p.host)).to.deep.equal(HOSTS);
    const refs = (name: string) => plans.find((p) => p.host === name)!.resources.map((x) => x.ref);
    expect(refs('db1')).to.include.members(['timezone:Europe/Paris', 'pkg:postgresql', 'file:/etc/postgresql/app.password']);
    expect(refs('web1')).to.include.members(['timezone:Etc/UTC', 'file:/etc/nginx/api-token', 'file:/etc/nginx/sites-enabled/shop.example.org.conf']);
    expect(refs('web1')).to.not.include('pkg:postgresql');
    expect(r.stdout).to.not.match(/TEST/); // no plain text of a secret
  });

  it('runs on each host, which decrypts its own secrets with its own host key, and publishes its run', async () => {
    for (const name of HOSTS) {
      const snapshot = JSON.parse(fs.readFileSync(path.join(repo, 'snapshots', `${name}.json`), 'utf8')) as Record<string, string>;
      const facts = { hostname: name, fqdn: name, role: snapshot.role, env: snapshot.env };
      hosts.push(await startHost(name, facts, path.join(repo, 'test-keys', `${name}.TEST-ONLY.ssh_host_ed25519_key`)));
    }
    for (const h of hosts) {
      const fakes = path.join(path.dirname(h.etc), 'fakes');
      for (const runner of ['pkg', 'service']) recordingRunner(fakes, runner, path.join(path.dirname(h.etc), 'calls.log'));
      const r = await h.govern(hostRun(h, fakes));
      expect(r.code, `${h.name}: ${r.stdout}${r.stderr}`).to.equal(0);
      expect(await read(h, 'motd')).to.match(new RegExp(`^${h.name}: `));
    }
    expect(await read(host('web1'), 'nginx/api-token')).to.equal('web1-api-token-TEST\n');
    expect(await read(host('web2'), 'nginx/api-token')).to.equal('web2-api-token-TEST\n');
    expect(await read(host('web2'), 'nginx/session-secret')).to.equal('shared-session-secret-TEST\n');
    expect(fs.statSync(path.join(host('web2').etc, 'nginx/session-secret')).mode & 0o777).to.equal(0o600);
    expect(await read(host('db1'), 'postgresql/app.password')).to.equal('db1-password-TEST\n');
    expect(await read(host('db1'), 'timezone')).to.equal('Europe/Paris\n');
    expect(await read(host('web1'), 'timezone')).to.equal('Etc/UTC\n');
    // Nothing of it reached this machine's own /etc.
    expect(fs.existsSync('/etc/nginx/api-token')).to.equal(false);
    expect(fs.readFileSync(path.join(host('web1').etc, 'motd'), 'utf8')).to.match(/^web1: /);

    const r = await govern(['fleet', '--fleet-url', nats.url]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^GOVERN FLEET OK - 3 hosts ran successfully within 1h \|/);
    expect(r.stdout.split('\n').slice(2, 5).map((l) => l.split(/ +/).slice(0, 2).join(' '))).to.deep.equal(['db1 ok', 'web1 ok', 'web2 ok']);
  });

  it('previews a change in CI as root (ci/govern-diff), then rolls it out to the web hosts in batches', async () => {
    edit('data/hosts/web1.hcl', 'workers = 8', 'workers = 4');
    await git('commit', '-q', '-am', 'web1: four workers');
    const d = await ci();
    expect(d.code, d.stdout + d.stderr).to.equal(0);
    expect(d.stdout).to.contain('file:/etc/nginx/conf.d-workers.conf');
    expect(d.stdout).to.contain('-worker_processes 8;\n');
    expect(d.stdout).to.contain('+worker_processes 4;\n');
    expect(d.stdout).to.match(/1 host: file:\/etc\/nginx\/conf\.d-workers\.conf contents/);
    expect(d.stdout).to.match(/changes above: review them\n$/);

    const operator = journeyDir('govern-journey-operator-');
    const seed = path.join(operator, 'operator.nk');
    const key = await govern(['fleet', 'key', seed]);
    const allowed = writeFile(path.join(operator, 'fleet-operators'), `${key.stdout.trim()}\n`);
    for (const h of hosts) {
      const fakes = path.join(path.dirname(h.etc), 'fakes');
      const child = h.spawn(['listen', '--fleet-url', nats.url, '--facts-dir', h.facts, '--allowed-keys', allowed, '--run-command', runStarter(h, hostRun(h, fakes))]);
      const { said, text } = stderrOf(child);
      await Promise.race([said(`listening on govern.run.${h.name} at `), new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`govern listen on ${h.name} exited (${code}): ${text()}`))))]);
    }
    const db1Calls = () => fs.readFileSync(path.join(path.dirname(host('db1').etc), 'calls.log'), 'utf8');
    const before = db1Calls();
    const r = await govern(['fleet', '--fleet-url', nats.url, 'run', '--where', 'role=web', '--batch', '1', '--sign-key', seed]);
    for (const h of hosts) await runsEnded(h.runPids);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^batch 1 of 2: web1\nweb1: ok, 1 changed\nbatch 2 of 2: web2\nweb2: ok, 0 changed\nevery selected host \(2\) ran successfully\n$/);
    expect(await read(host('web1'), 'nginx/conf.d-workers.conf')).to.equal('worker_processes 4;\n');
    expect(db1Calls()).to.equal(before); // db1 was not asked
  });

  it('rotates a secret: the preview says the encrypted value changed, and the host gets the new one', async () => {
    const set = await runCommand(path.join(ROOT, 'bin', 'govern'), ['secret', 'set', 'data/hosts/db1.hcl', 'database/password'], { cwd: repo, input: 'db1-password-ROTATED-TEST' });
    expect(set.code, set.stderr).to.equal(0); // no --to: recipients.hcl's rule "hosts/{host}.hcl" decides
    expect(fs.readFileSync(path.join(repo, 'data/hosts/db1.hcl'), 'utf8')).to.contain('"ENC[age,to=db1+admins,');
    const shown = await govern(['secret', 'show', 'data/hosts/db1.hcl', 'database/password', '--identity', admin()], { cwd: repo });
    expect(shown.stdout, shown.stderr).to.equal('db1-password-ROTATED-TEST');
    await git('commit', '-q', '-am', 'db1: a new database password');
    const d = await ci();
    expect(d.code, d.stdout + d.stderr).to.equal(0);
    expect(d.stdout).to.contain('encrypted value changed (data/hosts/db1.hcl:2, database/password) on 1 host: db1');
    expect(d.stdout).to.not.contain('ROTATED');
    const r = await host('db1').govern(hostRun(host('db1'), path.join(path.dirname(host('db1').etc), 'fakes')));
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(await read(host('db1'), 'postgresql/app.password')).to.equal('db1-password-ROTATED-TEST\n');
    expect(r.stdout).to.not.contain('ROTATED');
  });

  it('removes a host from a group and rekeys: the preview says the host still reads the value, and its run fails naming it', async () => {
    edit('recipients.hcl', 'web      = ["web1", "web2"]', 'web      = ["web1"]');
    const rekey = await govern(['secret', 'rekey', '--identity', admin(), '.'], { cwd: repo });
    expect(rekey.code, rekey.stdout + rekey.stderr).to.equal(0);
    expect(rekey.stdout).to.equal('data/roles/web.hcl:7: web/session_secret: encrypted again (removes web2)\n1 value of 4 encrypted again\n');
    await git('commit', '-q', '-am', 'web2 leaves the group web');
    const d = await ci();
    expect(d.code, d.stdout + d.stderr).to.equal(0);
    expect(d.stdout).to.contain('web2 reads web/session_secret but is no longer among its recipients (data/roles/web.hcl:7): its run will fail on 1 host: web2');
    const web2 = host('web2');
    const r = await web2.govern(hostRun(web2, path.join(path.dirname(web2.etc), 'fakes')));
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('data/roles/web.hcl:7');
    expect(r.stderr).to.contain('cannot decrypt with the identity /etc/ssh/ssh_host_ed25519_key (the value is for web+admins)');
    expect(r.stderr).to.not.match(/internal error|\n\s+at /);
    expect(await read(web2, 'nginx/session-secret')).to.equal('shared-session-secret-TEST\n'); // nothing applied
    const f = await govern(['fleet', '--fleet-url', nats.url]);
    expect(f.code).to.equal(2);
    expect(f.stdout).to.match(/^GOVERN FLEET CRITICAL - 1 of 3 hosts failed their last run \(web2\)/);
  });

  it('a value\'s label edited to add a group: the preview names it, rekey corrects it, and the group cannot read the value', async () => {
    edit('data/roles/web.hcl', 'to=web+admins,', 'to=web+admins+database,');
    await git('commit', '-q', '-am', 'web: tidy');
    const d = await ci();
    expect(d.code, d.stdout + d.stderr).to.equal(0);
    expect(d.stdout).to.contain('label of web/session_secret disagrees with its rule (data/roles/web.hcl:7): its label to=web+admins+database names database, which its rule does not (recipients.hcl:23: "roles/{role}.hcl" = web, admins)');
    const rekey = await govern(['secret', 'rekey', '--identity', admin(), '.'], { cwd: repo });
    expect(rekey.code, rekey.stdout + rekey.stderr).to.equal(0);
    expect(rekey.stderr).to.contain('data/roles/web.hcl:7: web/session_secret: its label to=web+admins+database names database');
    expect(rekey.stdout).to.equal('data/roles/web.hcl:7: web/session_secret: label to=web+admins+database -> to=web+admins (the readers were already these)\n1 value of 4 encrypted again\n');
    const db1 = path.join(repo, 'test-keys', 'db1.TEST-ONLY.ssh_host_ed25519_key');
    const shown = await govern(['secret', 'show', 'data/roles/web.hcl', 'web/session_secret', '--identity', db1], { cwd: repo });
    expect(shown.code).to.equal(1);
    expect(shown.stderr).to.contain('no identity matched any of the recipients');
    await git('commit', '-q', '-am', 'rekey: the label as its rule says');
  });

  it('catches a misspelt role before any host runs it, and in a selection of the fleet', async () => {
    const snapshot = JSON.parse(fs.readFileSync(path.join(repo, 'snapshots', 'web1.json'), 'utf8')) as Record<string, string>;
    writeFile(path.join(repo, 'snapshots', 'web3.json'), JSON.stringify({ ...snapshot, hostname: 'web3', fqdn: 'web3', role: 'wbe' }));
    const r = await govern(['plan', '--facts', 'snapshots/', '--host', 'web3', '.'], { cwd: repo });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('hierarchy.hcl:6: level "roles/wbe" is required, and it has no file (data/roles/wbe.hcl, .json, .yaml or .yml) (did you mean "roles/web"?)');
    // And in a selection of the fleet.
    const f = await govern(['fleet', '--fleet-url', nats.url, '--where', 'role=wbe']);
    expect(f.code).to.equal(3);
    expect(f.stdout).to.match(/^GOVERN FLEET UNKNOWN - no host matches \(did you mean role=web\?\) \|/);
  });
});
