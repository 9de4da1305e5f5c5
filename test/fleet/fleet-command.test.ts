// `govern fleet` against a real nats-server: selection by published facts, the table, --json, the
// monitoring-plugins exit codes with performance data, and --watch following a rollout to a commit.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { GOVERN, TEST_VAR_DIR } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { fleet, fleetHost, putHosts, putRaw, simulatedRun } from './support.js';

/** label=value[unit];warn;crit;min;max, space-separated, after " | ". */
const PERFDATA = /^[^|]* \| ([a-z_]+=[\d.]+(;[\d.]*){0,4})( [a-z_]+=[\d.]+(;[\d.]*){0,4})*$/;

describe('govern fleet', () => {
  let nats: NatsServer;
  beforeEach(async () => {
    nats = await startNats();
  });
  afterEach(stopAllNats);

  it('a host that ran for real is listed OK; the check line and the table', async () => {
    const host = fleetHost('web1.example.org', nats.url, { role: 'web' });
    expect((await host.run()).code).to.equal(0);
    const r = await fleet(nats.url);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    const [line, header, row] = r.stdout.split('\n');
    expect(line).to.match(/^GOVERN FLEET OK - 1 host ran successfully within 1h \| hosts=1;;;0 ok=1;;;0 failed=0;;0;0 stale=0;0;;0 commits=0;;;0 changed=1;;;0 invalid=0;0;;0 reverted=0;;0;0$/);
    expect(header).to.match(/^HOST +RESULT +AGE +CHANGED +FAILED +STAGE +COMMIT +VERSION$/);
    expect(row).to.match(/^web1\.example\.org +ok +\d+s +1 +0 +- +- +\d/);
  });

  it('selects by fact (every --where must hold); CRITICAL when a selected host failed, WARNING when one is late, UNKNOWN when none', async () => {
    await putHosts(nats.url, [
      { name: 'web1', facts: { role: 'web', env: 'production' }, run: simulatedRun('web1', { commit: 'aaa111' }) },
      { name: 'web2', facts: { role: 'web', env: 'production' }, run: simulatedRun('web2', { success: false, commit: 'aaa111' }) },
      { name: 'web3', facts: { role: 'web', env: 'staging' }, run: simulatedRun('web3', { endedAgoMs: 3 * 3600_000 }) },
      { name: 'db1', facts: { role: 'db', env: 'production' }, run: simulatedRun('db1', { endedAgoMs: 3 * 3600_000 }) },
      { name: 'db2', facts: { role: 'db', env: 'production' } },
    ]);
    const all = await fleet(nats.url);
    expect(all.code).to.equal(2);
    expect(all.stdout.split('\n')[0]).to.equal(
      'GOVERN FLEET CRITICAL - 1 of 5 hosts failed their last run (web2); 3 not reported within 1h (db1, web3, db2) | hosts=5;;;0 ok=1;;;0 failed=1;;0;0 stale=3;0;;0 commits=1;;;0 changed=0;;;0 invalid=0;0;;0 reverted=0;;0;0',
    );
    expect(all.stdout.split('\n')[0]).to.match(PERFDATA);
    expect(all.stdout.split('\n').slice(2, 7).map((l) => l.split(/ +/).slice(0, 2).join(' '))).to.deep.equal(['db1 stale', 'db2 unreported', 'web1 ok', 'web2 failed', 'web3 stale']);

    const web = await fleet(nats.url, ['--where', 'role=web', '--where', 'env=production']);
    expect(web.code).to.equal(2);
    expect(web.stdout).to.match(/^GOVERN FLEET CRITICAL - 1 of 2 hosts failed their last run \(web2\) \|/);

    const staging = await fleet(nats.url, ['--where', 'role=web', '--where', 'env=staging']);
    expect(staging.code).to.equal(1);
    expect(staging.stdout).to.match(/^GOVERN FLEET WARNING - 1 not reported within 1h \(web3\) \|/);
    expect((await fleet(nats.url, ['--where', 'env=staging', '--max-age', '4h'])).code).to.equal(0);

    const none = await fleet(nats.url, ['--where', 'role=mail']);
    expect(none.code).to.equal(3);
    expect(none.stdout).to.match(/^GOVERN FLEET UNKNOWN - no host matches \|/);
    const misspelt = await fleet(nats.url, ['--where', 'role=wbe']);
    expect(misspelt.code).to.equal(3);
    expect(misspelt.stdout).to.match(/^GOVERN FLEET UNKNOWN - no host matches \(did you mean role=web\?\) \|/);

    const json = JSON.parse((await fleet(nats.url, ['--json', '--where', 'role=web'])).stdout);
    expect(json.status).to.equal('CRITICAL');
    expect(json.hosts.map((h: { host: string; state: string }) => [h.host, h.state])).to.deep.equal([
      ['web1', 'ok'],
      ['web2', 'failed'],
      ['web3', 'stale'],
    ]);
    expect(json.hosts[0].run.commit).to.equal('aaa111');
  });

  it('bad input: a --where that is not FACT=VALUE, --until-commit without --watch, no URL: exit 3 with the reason', async () => {
    const bad = await fleet(nats.url, ['--where', 'role']);
    expect(bad.code).to.equal(3);
    expect(bad.stderr).to.include('--where: "role" is not FACT=VALUE');
    expect((await fleet(nats.url, ['--until-commit', 'abc'])).stderr).to.include('--until-commit and --timeout go with --watch');
    const none = await fleet('');
    expect(none.code).to.equal(3);
    expect(none.stderr).to.include('no fleet is configured');
  });

  it('server down: UNKNOWN (exit 3), within the time limit, with the status line on stdout as a check prints it', async () => {
    await nats.stop();
    const r = await fleet(nats.url, ['--fleet-timeout', '2s']);
    expect(r.code).to.equal(3);
    expect(r.stdout).to.match(/^GOVERN FLEET UNKNOWN - the fleet at nats:\/\/127\.0\.0\.1:\d+: connection refused[^\n]*\n$/);
    expect(r.stderr).to.match(/^govern: the fleet at nats:\/\/127\.0\.0\.1:\d+: connection refused/);
    const json = await fleet(nats.url, ['--fleet-timeout', '2s', '--json']);
    expect(json.code).to.equal(3);
    expect(JSON.parse(json.stdout)).to.include({ status: 'UNKNOWN', code: 3 });
  });

  it("one host's malformed record is one row flagged invalid, the rest shown; published text is escaped; a time that is no date or in the future is not fresh", async () => {
    await putHosts(nats.url, [
      { name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1') },
      { name: 'web2', facts: { role: 'web' }, run: { ...simulatedRun('web2'), govern_version: 'abc\x1b[31m', commit: '\x1b]0;pwned\x07\x1b[2J' } },
    ]);
    await putRaw(nats.url, 'govern_runs', 'bad1', '[1, 2]');
    await putRaw(nats.url, 'govern_runs', 'bad2', 'not json');
    await putRaw(nats.url, 'govern_runs', 'nodate', JSON.stringify({ ...simulatedRun('nodate'), ended_at: 'not a date' }));
    await putRaw(nats.url, 'govern_runs', 'future', JSON.stringify({ ...simulatedRun('future'), ended_at: '2099-01-01T00:00:00.000Z' }));
    await putRaw(nats.url, 'govern_runs', 'counts', JSON.stringify({ ...simulatedRun('counts'), summary: { changed: 'many' } }));
    await putRaw(nats.url, 'govern_facts', 'objfact', JSON.stringify({ format: 1, host: 'objfact', at: new Date().toISOString(), facts: { role: 'web', a: { a: 1 } } }));
    const r = await fleet(nats.url);
    expect(r.code, r.stderr).to.equal(1);
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.not.match(/[\x00-\x08\x0b-\x1f\x7f]/);
    const [line, , ...rest] = r.stdout.split('\n');
    expect(line).to.match(/^GOVERN FLEET WARNING - .*5 published what is not valid \(bad1, counts, future, nodate, objfact\)/);
    expect(line).to.match(/ invalid=5;0;;0 reverted=0;;0;0$/);
    const rows = Object.fromEntries(rest.filter((l) => /^\S+ +\S+ +/.test(l) && !l.includes(': ')).map((l) => l.split(/ +/).slice(0, 2)));
    // bad2 is not JSON, which the bucket reader leaves out: not a host of ours.
    expect(rows).to.deep.equal({ bad1: 'invalid', counts: 'invalid', future: 'invalid', nodate: 'invalid', objfact: 'invalid', web1: 'ok', web2: 'ok' });
    expect(r.stdout).to.include('\nbad1: its published run: not a JSON object\n');
    expect(r.stdout).to.include('\nnodate: its published run: ended_at is not a date\n');
    expect(r.stdout).to.include('\nfuture: its published run: ended_at is in the future\n');
    expect(r.stdout).to.include('\ncounts: its published run: summary.resources is not a count\n');
    expect(r.stdout).to.include('\nobjfact: its published facts: the fact "a" is not a string\n');
    // web2's record is valid in shape, and its text reaches the terminal escaped.
    const escaped = await fleet(nats.url, ['--where', 'role=web']);
    expect(escaped.stdout).to.not.include('\x1b');
    expect(escaped.stdout).to.match(/^web2 +ok .*\\x1b\]0;pwned.* abc\\x1b\[31m$/m);
    // A run whose time is in 2099 is not fresh under any --max-age.
    const long = await fleet(nats.url, ['--max-age', '100000h']);
    expect(long.code).to.equal(1);
    expect(long.stdout).to.match(/^future +invalid /m);
    const json = JSON.parse((await fleet(nats.url, ['--json'])).stdout) as { hosts: { host: string; state: string; problem?: string }[] };
    expect(json.hosts.find((h) => h.host === 'nodate')).to.deep.equal({ host: 'nodate', state: 'invalid', problem: 'its published run: ended_at is not a date' });
  });

  it('--watch --until-commit: prints hosts as they report and ends when every selected host ran the commit', async () => {
    await putHosts(nats.url, [
      { name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { commit: 'old000' }) },
      { name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { commit: 'old000' }) },
      { name: 'db1', facts: { role: 'db' }, run: simulatedRun('db1', { commit: 'old000' }) },
    ]);
    const child = spawn(GOVERN, ['fleet', '--fleet-url', nats.url, '--where', 'role=web', '--watch', '--until-commit', 'new111', '--timeout', '2m'], {
      env: { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR },
    });
    let stdout = '';
    const waiting: { text: string; resolve(): void }[] = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      for (const w of waiting.filter((w) => stdout.includes(w.text))) w.resolve();
    });
    // Each host reports once the watcher has printed what came before: no race, no sleep.
    const printed = (text: string) => new Promise<void>((resolve) => (stdout.includes(text) ? resolve() : waiting.push({ text, resolve })));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await printed('VERSION\n');
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { commit: 'new111abc', endedAgoMs: 0 }) }]);
    await printed(' web1 ok new111abc');
    await putHosts(nats.url, [{ name: 'db1', facts: { role: 'db' }, run: simulatedRun('db1', { commit: 'new111abc', endedAgoMs: 0 }) }]);
    await putHosts(nats.url, [{ name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { commit: 'new111abc', endedAgoMs: 0 }) }]);
    expect(await exited).to.equal(0);
    expect(stdout).to.include('every selected host (2) ran new111\n');
    expect(stdout).to.not.include(' db1 ok new111');
  });

  it('--watch follows the selection: a host whose facts come to match joins (and must reach the commit), one whose facts no longer match leaves', async () => {
    await putHosts(nats.url, [
      { name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { commit: 'old000' }) },
      { name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { commit: 'old000' }) },
      { name: 'db1', facts: { role: 'db' }, run: simulatedRun('db1', { commit: 'old000' }) },
    ]);
    const child = spawn(GOVERN, ['fleet', '--fleet-url', nats.url, '--where', 'role=web', '--watch', '--until-commit', 'new111', '--timeout', '2m'], {
      env: { ...process.env, GOVERN_VAR_DIR: TEST_VAR_DIR },
    });
    let stdout = '';
    const waiting: { text: string; resolve(): void }[] = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      for (const w of waiting.filter((w) => stdout.includes(w.text))) w.resolve();
    });
    const printed = (text: string) => new Promise<void>((resolve) => (stdout.includes(text) ? resolve() : waiting.push({ text, resolve })));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await printed('VERSION\n');
    await putHosts(nats.url, [{ name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { commit: 'new111', endedAgoMs: 0 }) }]);
    await printed(' web1 ok new111');
    // A new host of the role, at the old commit: the watch now waits for it too.
    await putHosts(nats.url, [{ name: 'web3', facts: { role: 'web' }, run: simulatedRun('web3', { commit: 'old000', endedAgoMs: 0 }) }]);
    await printed(' web3 selected: its published facts match\n');
    // web2 is given another role, and is not waited for any more.
    await putHosts(nats.url, [{ name: 'web2', facts: { role: 'db' } }]);
    await printed(' web2 no longer selected: its published facts do not match\n');
    // db1 becomes a web host, its run (published just before its facts) at the commit.
    await putHosts(nats.url, [{ name: 'db1', facts: { role: 'web' }, run: simulatedRun('db1', { commit: 'new111', endedAgoMs: 0 }) }]);
    await printed(' db1 ok new111');
    expect(child.exitCode).to.equal(null);
    await putHosts(nats.url, [{ name: 'web3', facts: { role: 'web' }, run: simulatedRun('web3', { commit: 'new111', endedAgoMs: 0 }) }]);
    expect(await exited).to.equal(0);
    expect(stdout).to.include('every selected host (3) ran new111\n');
  });

  it('--watch --until-commit --timeout: exit 1 naming the hosts not there yet; 2 when one failed at the commit', async () => {
    await putHosts(nats.url, [
      { name: 'web1', facts: { role: 'web' }, run: simulatedRun('web1', { commit: 'new111' }) },
      { name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { commit: 'old000' }) },
    ]);
    const late = await fleet(nats.url, ['--watch', '--until-commit', 'new111', '--timeout', '1s']);
    expect(late.code).to.equal(1);
    expect(late.stdout).to.include('not at new111 after 1s: web2\n');
    await putHosts(nats.url, [{ name: 'web2', facts: { role: 'web' }, run: simulatedRun('web2', { commit: 'new111', success: false }) }]);
    const failed = await fleet(nats.url, ['--watch', '--until-commit', 'new111', '--timeout', '1m']);
    expect(failed.code).to.equal(2);
    expect(failed.stdout).to.include('at new111, failed: web2\n');
  });
});
