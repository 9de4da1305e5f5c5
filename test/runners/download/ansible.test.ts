// The download runner against Ansible's get_url, where the installed Ansible has it: the same file
// from the same local HTTP server (127.0.0.1, started by the test), fetched with a checksum and a
// mode by both, the bytes and modes compared; and a checksum mismatch an error for both, with
// nothing written. Skipped, with the reason, where Ansible is not installed.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runCommand } from '../../../src/shared/process.js';
import { callRunner } from '../../support/runner-modes.js';
import { skipBecause, skipUnlessTools } from '../../support/tools.js';
import { tempDir } from '../../support/tmp.js';
import { modeOf } from '../file/support.js';

const TOOL = Buffer.from('#!/bin/sh\necho tool\n');
const SUM = crypto.createHash('sha256').update(TOOL).digest('hex');

describe('download runner against Ansible\'s get_url #once', function () {
  this.timeout(300_000);
  let server: http.Server;
  let base = '';

  before(async function () {
    await skipUnlessTools(this, ['ansible-playbook']);
    const doc = await runCommand('ansible-doc', ['-j', 'ansible.builtin.get_url'], { timeoutMs: 120_000 });
    if (doc.code !== 0 || !doc.stdout.includes('"options"')) skipBecause(this, 'the installed Ansible has no module ansible.builtin.get_url');
    server = http.createServer((req, res) => (req.url === '/tool' ? res.end(TOOL) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => (server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined));

  /** One get_url task on localhost: its exit code. */
  async function getUrl(args: Record<string, unknown>): Promise<number> {
    const dir = tempDir('govern-get-url-');
    const playbook = path.join(dir, 'playbook.json');
    // JSON is YAML: no quoting rules to get wrong.
    fs.writeFileSync(playbook, JSON.stringify([{ hosts: 'localhost', gather_facts: false, tasks: [{ name: 'get', 'ansible.builtin.get_url': args }] }]));
    const r = await runCommand('ansible-playbook', ['-i', 'localhost,', '-c', 'local', playbook], { timeoutMs: 280_000, env: { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_RETRY_FILES_ENABLED: '0', no_proxy: '*' } });
    return r.code ?? -1;
  }

  it('a file with a checksum and a mode: the same bytes and mode', async () => {
    const dir = tempDir('govern-get-url-');
    const theirs = path.join(dir, 'ansible-tool');
    const ours = path.join(dir, 'govern-tool');
    expect(await getUrl({ url: `${base}/tool`, dest: theirs, checksum: `sha256:${SUM}`, mode: '0755' })).to.equal(0);
    const r = await callRunner('download', 'oneshot', ours, [`url=${base}/tool`, `checksum=sha256:${SUM}`, 'mode=0755']);
    expect(r.ok, r.log).to.equal(true);
    expect(fs.readFileSync(ours).equals(fs.readFileSync(theirs))).to.equal(true);
    expect(modeOf(ours)).to.equal(modeOf(theirs));
  });

  it('a checksum the download does not match: an error for both, nothing written', async () => {
    const dir = tempDir('govern-get-url-');
    const wrong = `sha256:${'0'.repeat(64)}`;
    expect(await getUrl({ url: `${base}/tool`, dest: path.join(dir, 'ansible-tool'), checksum: wrong })).not.to.equal(0);
    const r = await callRunner('download', 'oneshot', path.join(dir, 'govern-tool'), [`url=${base}/tool`, `checksum=${wrong}`]);
    expect(r.ok).to.equal(false);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('tool'))).to.deep.equal([]);
  });
});
