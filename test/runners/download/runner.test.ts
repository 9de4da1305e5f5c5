// The real runners/download against a local HTTP server (127.0.0.1, started by the test) and real
// files in a temporary directory, in both runner modes: fetched, checked and written atomically;
// not fetched again while the file matches; a mismatch, an error answer or an oversized body
// writing nothing; noop fetching nothing.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';
import { leftovers, modeOf, snapshot } from '../file/support.js';

const TOOL = Buffer.from('#!/bin/sh\necho tool 1.0\n');
const OTHER = Buffer.from('#!/bin/sh\necho tool 0.9\n');
const sha = (b: Buffer) => `sha256:${crypto.createHash('sha256').update(b).digest('hex')}`;

describe('download runner: a local HTTP server, real files #once', function () {
  this.timeout(120_000);
  let server: http.Server;
  let base = '';
  const hits = new Map<string, number>();

  before(async () => {
    server = http.createServer((req, res) => {
      const url = req.url ?? '';
      hits.set(url, (hits.get(url) ?? 0) + 1);
      if (url === '/tool') res.end(TOOL);
      else if (url === '/moved') res.writeHead(302, { location: '/tool' }).end();
      else if (url === '/big') res.writeHead(200, { 'content-length': '4096' }).end(Buffer.alloc(4096));
      else if (url === '/chunked-big') {
        res.writeHead(200);
        res.write(Buffer.alloc(3000));
        res.end(Buffer.alloc(3000));
      } else res.writeHead(404).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      const call = (file: string, args: string[], env: Record<string, string> = {}) => callRunner('download', mode, file, args, env);

      it('a missing file: noop fetches nothing; the run fetches, checks and writes it with its mode; the next run does not fetch', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        const args = [`url=${base}/tool`, `checksum=${sha(TOOL)}`, 'mode=0755'];
        hits.clear();
        const noop = await call(F, args, { GOVERN_NOOP: '1' });
        expect(noop, noop.log).to.include({ ok: true, changed: true, message: `Would have downloaded ${base}/tool to ${F}` });
        expect(hits.get('/tool') ?? 0, 'noop fetched nothing').to.equal(0);
        expect(fs.existsSync(F)).to.equal(false);
        const real = await call(F, args);
        expect(real, real.log).to.include({ ok: true, changed: true, message: `downloaded ${base}/tool to ${F}` });
        expect(fs.readFileSync(F).equals(TOOL)).to.equal(true);
        expect(modeOf(F)).to.equal(0o755);
        expect(leftovers(dir)).to.deep.equal([]);
        const settled = snapshot(dir);
        const again = await call(F, args);
        expect(again, again.log).to.include({ ok: true, changed: false, message: `${F} matches ${sha(TOOL).slice(0, 19)}: not fetched` });
        expect(hits.get('/tool'), 'fetched once').to.equal(1);
        expect(snapshot(dir)).to.deep.equal(settled);
      });

      it('a checksum the download does not match: an error, and the file there is left as it was', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        fs.writeFileSync(F, OTHER);
        const before = snapshot(dir);
        const r = await call(F, [`url=${base}/tool`, `checksum=${sha(OTHER).replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`]);
        expect(r.ok, r.log).to.equal(false);
        expect(r.message).to.match(new RegExp(`^${base}/tool does not match the checksum: expected sha256:[0-9a-f]{64}, got ${sha(TOOL)} \\(${TOOL.length} bytes\\); nothing was written$`));
        expect(snapshot(dir)).to.deep.equal(before);
        expect(leftovers(dir)).to.deep.equal([]);
      });

      it('a file that no longer matches is fetched again, its attributes kept and its old content backed up', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        fs.writeFileSync(F, OTHER, { mode: 0o750 });
        fs.chmodSync(F, 0o750);
        const backups = path.join(dir, 'backup');
        const r = await call(F, [`url=${base}/moved`, `checksum=${sha(TOOL)}`, 'backup=true'], { GOVERN_VAR_DIR: dir });
        expect(r, r.log).to.include({ ok: true, changed: true, message: `downloaded ${base}/moved to ${F} (it did not match ${sha(TOOL).slice(0, 19)})` });
        expect(fs.readFileSync(F).equals(TOOL)).to.equal(true);
        expect(modeOf(F)).to.equal(0o750);
        const copies = fs.readdirSync(path.join(backups, F)).filter((name) => !name.endsWith('.json'));
        expect(fs.readFileSync(path.join(backups, F, copies[0])).equals(OTHER)).to.equal(true);
      });

      it('a matching file with another mode: the mode set, nothing fetched', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        fs.writeFileSync(F, TOOL);
        fs.chmodSync(F, 0o644);
        hits.clear();
        const r = await call(F, [`url=${base}/tool`, `checksum=${sha(TOOL)}`, 'mode=0755']);
        expect(r, r.log).to.include({ ok: true, changed: true, message: `${F} matches ${sha(TOOL).slice(0, 19)}: mode 0644 -> 0755` });
        expect(modeOf(F)).to.equal(0o755);
        expect(hits.get('/tool') ?? 0).to.equal(0);
      });

      it('an error answer, a body over max_size (declared or not): an error, nothing written', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        const missing = await call(F, [`url=${base}/nothing`, `checksum=${sha(TOOL)}`]);
        expect(missing).to.include({ ok: false, message: `cannot download ${base}/nothing: HTTP 404; nothing was written` });
        const big = await call(F, [`url=${base}/big`, `checksum=${sha(TOOL)}`, 'max_size=1000']);
        expect(big).to.include({ ok: false, message: `cannot download ${base}/big: it is 4096 bytes, more than max_size (1000); nothing was written` });
        const chunked = await call(F, [`url=${base}/chunked-big`, `checksum=${sha(TOOL)}`, 'max_size=5000']);
        expect(chunked).to.include({ ok: false, message: `cannot download ${base}/chunked-big: it is more than max_size (5000 bytes); nothing was written` });
        expect(fs.readdirSync(dir)).to.deep.equal([]);
      });

      it('a proxy variable is said not to be used (Node\'s fetch connects directly), unless no_proxy names the host', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        const args = [`url=${base}/tool`, `checksum=${sha(TOOL)}`];
        const r = await call(F, args, { http_proxy: 'http://user:secret@proxy.invalid:3128', no_proxy: '' });
        expect(r, r.log).to.include({ ok: true, changed: true });
        expect(r.log).to.include('warning: http_proxy is set, but Node\'s fetch does not use a proxy');
        expect(r.log).not.to.include('secret');
        fs.rmSync(F);
        const excluded = await call(F, args, { http_proxy: 'http://proxy.invalid:3128', no_proxy: 'localhost,127.0.0.1' });
        expect(excluded, excluded.log).to.include({ ok: true, changed: true });
        expect(excluded.log).not.to.include('proxy');
      });

      it('ensure = "absent" removes the file; a link at the path is refused and not followed', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        fs.writeFileSync(F, TOOL);
        const gone = await call(F, ['ensure=absent']);
        expect(gone).to.include({ ok: true, changed: true, message: `removed ${F}` });
        expect(fs.existsSync(F)).to.equal(false);
        const again = await call(F, ['ensure=absent']);
        expect(again).to.include({ ok: true, changed: false, message: `${F} absent` });
        fs.writeFileSync(path.join(dir, 'real'), OTHER);
        fs.symlinkSync(path.join(dir, 'real'), F);
        const link = await call(F, [`url=${base}/tool`, `checksum=${sha(TOOL)}`]);
        expect(link.ok).to.equal(false);
        expect(link.message).to.include('is a symbolic link');
        expect(fs.readFileSync(path.join(dir, 'real')).equals(OTHER)).to.equal(true);
      });

      it('refresh does nothing; an unknown signal is refused', async () => {
        const dir = tempDir('govern-download-');
        const F = path.join(dir, 'tool');
        const args = [`url=${base}/tool`, `checksum=${sha(TOOL)}`];
        const refresh = await call(F, args, { GOVERN_SIGNAL: 'refresh' });
        expect(refresh).to.include({ ok: true, changed: false });
        expect(fs.existsSync(F)).to.equal(false);
        const unknown = await call(F, args, { GOVERN_SIGNAL: 'restart' });
        expect(unknown.ok).to.equal(false);
        expect(unknown.message).to.include('restart');
      });
    });
  }
});
