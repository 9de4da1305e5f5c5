import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, ROOT } from '../support/cli.js';
import { readCalls, recordingRunner } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

const FLEET = path.join(ROOT, 'examples', 'fleet');

function facts(values: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, value] of Object.entries(values)) writeFile(path.join(dir, name), value);
  return dir;
}

/** A runner that records each call's argv as a JSON line (values with newlines included) and changes nothing. */
function jsonRecordingRunners(dir: string, log: string): string {
  const script = `#!${process.execPath}\nif (process.env.GOVERN_DESCRIBE === '1') process.exit(0);\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify([require('path').basename(process.argv[1]), process.env.GOVERN_SIGNAL || '', ...process.argv.slice(2)]) + '\\n');\n`;
  for (const name of ['pkg', 'service', 'file', 'timezone']) writeFile(path.join(dir, name), script, 0o755);
  return dir;
}

/** A host's SSH host key, as the example ships it for tests (test-keys/). */
const hostKey = (host: string) => path.join(FLEET, 'test-keys', `${host}.TEST-ONLY.ssh_host_ed25519_key`);

/**
 * What a host would apply: the real planning, with runners that only record their calls (the whole
 * runner list, so that the tree's own runners.d/timezone is recorded too), decrypting with the
 * host's test key. A sensitive resource's values go to its runner on stdin: they are not recorded.
 */
async function plannedCalls(hostFacts: Record<string, string>): Promise<Map<string, string[]>> {
  const dir = tempDir();
  const log = path.join(dir, 'calls.log');
  const runners = jsonRecordingRunners(path.join(dir, 'runners'), log);
  const identity = fs.existsSync(hostKey(hostFacts.hostname)) ? ['--identity', hostKey(hostFacts.hostname)] : [];
  const r = await govern(['run', FLEET, '--facts-dir', facts(hostFacts), ...identity], { env: { GOVERN_RUNNERS_PATH: runners } });
  expect(r.code, r.stderr).to.equal(0);
  const calls = fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]);
  return new Map(calls.filter(([, signal]) => signal === '').map(([runner, , name, ...args]) => [`${runner}:${name.replace('/tmp/govern-fleet', '')}`, args]));
}

const COMMON = ['file:', 'file:/etc', 'timezone:Etc/UTC', 'file:/etc/ntp.conf', 'file:/etc/motd', 'file:/etc/govern-admins'];

describe('examples/fleet: one tree, three roles, two environments', () => {
  it('gives each host exactly its roles\' resources, with its levels\' values', async () => {
    const web = await plannedCalls({ hostname: 'web1', role: 'web', env: 'staging' });
    expect([...web.keys()]).to.have.members([
      ...COMMON,
      'pkg:nginx',
      'service:nginx',
      'file:/etc/nginx',
      'file:/etc/nginx/sites-enabled',
      'file:/etc/nginx/conf.d-workers.conf',
      'file:/etc/nginx/api-token',
      'file:/etc/nginx/session-secret',
      'file:/etc/nginx/sites-enabled/shop.example.org.conf',
      'file:/etc/nginx/sites-enabled/blog.example.org.conf',
    ]);
    const arg = (calls: Map<string, string[]>, ref: string, key: string) => calls.get(ref)!.find((a) => a.startsWith(`${key}=`))!.slice(key.length + 1);
    // The host level's workers, the staging ntp servers merged before common's, staging's admin merged into common's.
    expect(arg(web, 'file:/etc/nginx/conf.d-workers.conf', 'contents')).to.equal('worker_processes 8;\n');
    expect(arg(web, 'file:/etc/ntp.conf', 'contents')).to.equal(
      '# Managed by govern (module ntp).\ndriftfile /var/lib/ntpsec/ntp.drift\nserver ntp.staging.example.org iburst\nserver 0.debian.pool.ntp.org iburst\nserver 1.debian.pool.ntp.org iburst\n',
    );
    expect(arg(web, 'file:/etc/govern-admins', 'contents').split('\n').map((l) => l.split(' ')[0])).to.deep.equal(['alice', 'bob', 'carol', '']);
    expect(arg(web, 'file:/etc/motd', 'contents')).to.equal('web1: STAGING: managed by govern, data may be reset at any time.\n');
    // The instance's own port, and tls from the role's data (nginx_site/tls).
    expect(arg(web, 'file:/etc/nginx/sites-enabled/shop.example.org.conf', 'contents')).to.contain('    listen 8080;\n    listen 443 ssl;\n    server_name shop.example.org;');

    const web2 = await plannedCalls({ hostname: 'web2', role: 'web', env: 'production' });
    expect(arg(web2, 'file:/etc/nginx/conf.d-workers.conf', 'contents')).to.equal('worker_processes 2;\n');
    expect(arg(web2, 'file:/etc/ntp.conf', 'contents')).to.contain('server ntp1.example.org iburst\nserver ntp2.example.org iburst\nserver 0.debian.pool.ntp.org iburst\n');
    expect(arg(web2, 'file:/etc/govern-admins', 'contents')).not.to.contain('carol');

    const db = await plannedCalls({ hostname: 'db1', role: 'database', env: 'production' });
    expect([...db.keys()]).to.have.members([...COMMON.map((ref) => ref.replace('Etc/UTC', 'Europe/Paris')), 'pkg:postgresql', 'service:postgresql', 'file:/etc/postgresql', 'file:/etc/postgresql/govern.conf', 'file:/etc/postgresql/app.password']);
    expect(arg(db, 'file:/etc/postgresql/govern.conf', 'contents')).to.equal('max_connections = 100\n');

    const cache = await plannedCalls({ hostname: 'cache1', role: 'cache', env: 'staging' });
    expect([...cache.keys()]).to.have.members([...COMMON, 'pkg:redis-server', 'service:redis-server', 'file:/etc/redis', 'file:/etc/redis/govern.conf']);
    expect(arg(cache, 'file:/etc/redis/govern.conf', 'contents')).to.equal('maxmemory 512mb\n');
  });

  it('refuses a host without a role fact, at its line of hierarchy.hcl', async () => {
    const r = await govern(['graph', FLEET, '--facts-dir', facts({ hostname: 'x1', env: 'staging' })]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`${FLEET}/hierarchy.hcl:6: fact "role": no such fact`));
  });

  it('refuses a misspelt fact name in hierarchy.hcl, naming the fact it likely means (this host\'s facts, or a snapshot\'s)', async () => {
    const tree = tempDir();
    fs.cpSync(FLEET, tree, { recursive: true });
    const text = fs.readFileSync(path.join(tree, 'hierarchy.hcl'), 'utf8');
    fs.writeFileSync(path.join(tree, 'hierarchy.hcl'), text.replace('fact "hostname"', 'fact "hostnme"'));
    const local = await govern(['graph', tree, '--facts-dir', facts({ role: 'web', env: 'staging' })]);
    expect(local.code).to.equal(1);
    expect(local.stderr).to.match(new RegExp(`${tree}/hierarchy.hcl:5: fact "hostnme": no such fact \\(looked in [^\n]*\\) \\(did you mean "hostname"\\?\\)\n`));
    const planned = await govern(['plan', '--facts', path.join(tree, 'snapshots', 'web1.json'), tree]);
    expect(planned.code).to.equal(1);
    expect(planned.stderr).to.contain(`hierarchy.hcl:5: fact "hostnme": no such fact in the snapshot ${path.join(tree, 'snapshots', 'web1.json')} (did you mean "hostname"?)`);
  });

  it('refuses a misspelt role, whose file the hierarchy requires, naming the role it likely means', async () => {
    const r = await govern(['graph', FLEET, '--facts-dir', facts({ hostname: 'web1', role: 'wbe', env: 'staging' })]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${FLEET}/hierarchy.hcl:6: level "roles/wbe" is required, and it has no file (data/roles/wbe.hcl, .json, .yaml or .yml) (did you mean "roles/web"?)`);
  });

  it('applies the cache role for real (files by the real file runner; pkg and service fake, recording)', async () => {
    const tree = tempDir();
    fs.cpSync(FLEET, tree, { recursive: true });
    const root = path.join(tempDir(), 'root');
    writeFile(path.join(tree, 'data', 'hosts', 'cache1.hcl'), `root = ${JSON.stringify(root)}\n`);
    const log = path.join(tree, 'calls.log');
    for (const name of ['pkg', 'service']) recordingRunner(path.join(tree, 'runners.d'), name, log);
    const hostFacts = facts({ hostname: 'cache1', role: 'cache', env: 'production' });
    const first = await govern(['run', tree, '--json', '--facts-dir', hostFacts]);
    expect(first.code, first.stderr).to.equal(0);
    expect((JSON.parse(first.stdout) as RunReport).summary).to.deep.include({ resources: 10, failed: 0 });
    expect(fs.readFileSync(path.join(root, 'etc/timezone'), 'utf8')).to.equal('Europe/Paris\n'); // by the tree's runners.d/timezone
    expect(fs.readFileSync(path.join(root, 'etc/redis/govern.conf'), 'utf8')).to.equal('maxmemory 512mb\n');
    expect(fs.readFileSync(path.join(root, 'etc/ntp.conf'), 'utf8')).to.contain('server ntp1.example.org iburst\n');
    expect(fs.readFileSync(path.join(root, 'etc/motd'), 'utf8')).to.equal('cache1: Managed by govern: local changes are overwritten.\n');
    expect(fs.statSync(path.join(root, 'etc/govern-admins')).mode & 0o777).to.equal(0o600);
    expect(readCalls(log).map((c) => `${c.runner}:${c.name}${c.signal ? `!${c.signal}` : ''}`)).to.deep.equal(['pkg:redis-server', 'service:redis-server', 'service:redis-server!restart']);
    const second = await govern(['run', tree, '--json', '--facts-dir', hostFacts]);
    expect((JSON.parse(second.stdout) as RunReport).summary).to.deep.include({ resources: 10, changed: 0, notifications_sent: 0 });
  });
});
