// The real runners/apt_repository in both runner modes against an apt confined to the test's own
// directory (APT_CONFIG): the deb822 file and the key, noop, the second run, a pinned fingerprint
// refused, a key fetched from a local HTTP server, removal; and by hand, the apt-get update at once.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runCommand } from '../../../src/shared/process.js';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { have } from '../pkg/repos.js';
import { confinedApt, makeKey, removeKeys, SignedAptRepo, type TestKey } from './signed-repo.js';

const HELLO = 'govern-test-repos-hello';

/** The key as gpg exports it without armor. */
function gpgExport(key: TestKey): Buffer {
  return execFileSync('gpg', ['--batch', '--export', key.fingerprint], { env: { ...process.env, GNUPGHOME: key.home } });
}

describe('apt_repository runner (real apt, confined by APT_CONFIG) #once', function () {
  this.timeout(120_000);
  let repo: SignedAptRepo;
  let key: TestKey;
  let other: TestKey;
  let server: http.Server;
  let served = 0;
  let url = '';

  before(async function () {
    if (process.getuid?.() !== 0 || !(await have('apt-get')) || !(await have('gpg')) || !(await have('dpkg-scanpackages'))) this.skip();
    [key, other] = [await makeKey('govern-repos-test'), await makeKey('govern-repos-other')];
    repo = new SignedAptRepo([HELLO]);
    await repo.build([{ name: HELLO, version: '1.0-1' }], key);
    server = http.createServer((_req, res) => {
      served++;
      res.end(key.armored);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/key.asc`;
  });

  after(async () => {
    removeKeys(key, other);
    server?.close();
    await repo?.cleanup();
  });

  for (const mode of MODES) {
    describe(`${mode} mode`, () => {
      function setup() {
        const apt = confinedApt();
        const runDir = tempDir('govern-repos-run-');
        const env = { ...apt.env, GOVERN_RUN_DIR: runDir };
        const sources = path.join(apt.sourcesDir, 'govern-test.sources');
        const asc = path.join(apt.keyringsDir, 'govern-test.asc');
        const pending = path.join(runDir, 'pkg', 'refresh-apt');
        return { apt, env, sources, asc, pending };
      }
      const args = () => [`uris=file:${repo.dir}`, 'suites=./'];

      it('noop writes nothing; the run writes the key, then the source naming it, and leaves one apt-get update pending; the second run changes nothing', async () => {
        const t = setup();
        const call = (extra: string[], env: Record<string, string> = {}) => callRunner('apt_repository', mode, 'govern-test', [...args(), ...extra], { ...t.env, ...env });
        const noop = await call([`signed_by=${key.armored}`], { GOVERN_NOOP: '1' });
        expect(noop).to.include({ ok: true, changed: true, message: `Would have created ${t.sources}, created ${t.asc}` });
        expect(fs.existsSync(t.sources) || fs.existsSync(t.asc) || fs.existsSync(t.pending)).to.equal(false);

        const first = await call([`signed_by=${key.armored}`, `fingerprint=${key.fingerprint}`]);
        expect(first, first.log).to.include({ ok: true, changed: true, message: `created ${t.sources}, created ${t.asc}; apt-get update pending` });
        expect(fs.readFileSync(t.sources, 'utf8')).to.equal(
          `# Written by govern (apt_repository "govern-test"); a change made here is undone at its next run.\nTypes: deb\nURIs: file:${repo.dir}\nSuites: ./\nSigned-By: ${t.asc}\n`,
        );
        expect(fs.readFileSync(t.asc, 'utf8')).to.equal(key.armored);
        expect([fs.statSync(t.sources).mode & 0o777, fs.statSync(t.asc).mode & 0o777]).to.deep.equal([0o644, 0o644]);
        expect(fs.existsSync(t.pending)).to.equal(true);

        fs.rmSync(t.pending);
        const second = await call([`signed_by=${key.armored}`]);
        expect(second).to.include({ ok: true, changed: false, message: `${t.sources} up to date` });
        expect(fs.existsSync(t.pending), 'nothing changed, nothing to refresh').to.equal(false);

        const changed = await call([`signed_by=${key.armored}`, 'architectures=amd64'], { GOVERN_NOOP: '1' });
        expect(changed).to.include({ changed: true, message: `Would have changed ${t.sources} (content)` });
        expect(changed.diff?.split('\n')).to.include('+Architectures: amd64');

        const gone = await callRunner('apt_repository', mode, 'govern-test', ['ensure=absent'], t.env);
        expect(gone).to.include({ ok: true, changed: true, message: `removed ${t.sources}, removed ${t.asc}; apt-get update pending` });
        expect(fs.existsSync(t.sources) || fs.existsSync(t.asc)).to.equal(false);
      });

      it('a binary key file of the tree (relative to the state file) is written as .gpg; an armored one then replaces it as .asc', async () => {
        const t = setup();
        const states = tempDir('govern-repos-states-');
        fs.mkdirSync(path.join(states, 'keys'));
        fs.writeFileSync(path.join(states, 'keys', 'repo.gpg'), gpgExport(key));
        const gpg = path.join(path.dirname(t.asc), 'govern-test.gpg');
        const call = (signedBy: string) => callRunner('apt_repository', mode, 'govern-test', [...args(), `signed_by=${signedBy}`], { ...t.env, GOVERN_STATE_DIR: states });
        const first = await call('keys/repo.gpg');
        expect(first, first.log).to.include({ ok: true, changed: true, message: `created ${t.sources}, created ${gpg}; apt-get update pending` });
        expect(fs.readFileSync(t.sources, 'utf8')).to.contain(`Signed-By: ${gpg}\n`);
        const armored = await call(key.armored);
        expect(armored).to.include({ ok: true, changed: true, message: `changed ${t.sources} (content), created ${t.asc}, removed ${gpg}; apt-get update pending` });
        expect([fs.existsSync(t.asc), fs.existsSync(gpg)]).to.deep.equal([true, false]);
        expect(fs.readFileSync(t.sources, 'utf8')).to.contain(`Signed-By: ${t.asc}\n`);
      });

      it('a key that is not the pinned one, a secret key, or a URL without a fingerprint is refused before anything is written', async () => {
        const t = setup();
        const call = (extra: string[]) => callRunner('apt_repository', mode, 'govern-test', [...args(), ...extra], t.env);
        const wrong = await call([`signed_by=${other.armored}`, `fingerprint=${key.fingerprint}`]);
        expect(wrong.ok).to.equal(false);
        expect(wrong.message).to.equal(`signed_by holds key ${other.fingerprint}, not the pinned ${key.fingerprint}: refused`);
        const keyFile = writeFile(path.join(tempDir(), 'secret.asc'), (await runCommand('gpg', ['--batch', '--armor', '--export-secret-keys', key.fingerprint], { env: { ...process.env, GNUPGHOME: key.home } })).stdout);
        const secret = await call([`signed_by=${keyFile}`]);
        expect(secret.message).to.equal(`${keyFile} holds a secret key: give the public key only (gpg --armor --export KEYID)`);
        const unpinned = await call([`signed_by=${url}`]);
        expect(unpinned.message).to.match(/signed_by is a URL, so give the key's fingerprint too/);
        expect(fs.existsSync(t.sources) || fs.existsSync(t.asc) || fs.existsSync(t.pending)).to.equal(false);
      });

      it('a key fetched by URL is checked against its pinned fingerprint, and not fetched again while the file holds it', async () => {
        const t = setup();
        const spaced = key.fingerprint.replace(/(.{4})/g, '$1 ').trim();
        const call = () => callRunner('apt_repository', mode, 'govern-test', [...args(), `signed_by=${url}`, `fingerprint=${spaced}`], t.env);
        const before = served;
        const first = await call();
        expect(first, first.log).to.include({ ok: true, changed: true });
        expect(fs.readFileSync(t.asc, 'utf8')).to.equal(key.armored);
        expect(served).to.equal(before + 1);
        const second = await call();
        expect(second).to.include({ ok: true, changed: false });
        expect(served, 'the written key holds the pinned fingerprint').to.equal(before + 1);
        const refused = await callRunner('apt_repository', mode, 'govern-test', [...args(), `signed_by=${url}`, `fingerprint=${other.fingerprint}`], t.env);
        expect(refused.message).to.equal(`${url} holds key ${key.fingerprint}, not the pinned ${other.fingerprint}: refused`);
        expect(fs.readFileSync(t.asc, 'utf8'), 'the refused key changed nothing').to.equal(key.armored);
      });
    });
  }

  it('called by hand (no run), it runs apt-get update at once: apt then knows the repository\'s packages', async () => {
    const apt = confinedApt();
    const r = await callRunner('apt_repository', 'oneshot', 'govern-test', [`uris=file:${repo.dir}`, 'suites=./', `signed_by=${key.armored}`], apt.env);
    expect(r, r.log).to.include({ ok: true, changed: true });
    expect(r.message).to.match(/; apt-get update done$/);
    const policy = await runCommand('apt-cache', ['policy', HELLO], { env: { ...process.env, ...apt.env } });
    expect(policy.stdout).to.match(/Candidate: 1\.0-1/);
  });
});
