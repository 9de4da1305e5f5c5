// Where a decrypted value may not be: in the argv of any process while a run holds it (govern, a
// persistent runner, a one-shot runner), or in any file a run writes outside the managed file
// (the run directory, /tmp, the cache, the var directory, the metrics file).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { encrypt } from '../../src/secrets/age.js';
import { formatEncrypted } from '../../src/secrets/format.js';
import { lockDir } from '../../src/shared/lock-dir.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { sshKey } from './keys.js';
import { readWithoutAtime } from '../runners/file/support.js';

const PLAIN = 'Leak-check-9f3b-pass';

/** The pids whose command line holds the text. */
function cmdlinesHolding(text: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(text)) found.push(`${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ')}`);
    } catch {
      // gone already
    }
  }
  return found;
}

/**
 * Files under dir (or dir itself) changed since `since` (at most 4 MiB each) that hold the text, read
 * without changing their access time: the scan of /tmp reads the files of another suite running beside
 * this one, whose tests check that a run leaves even the access time alone.
 */
function recentFilesHolding(dir: string, text: string, since: number, skip: string): string[] {
  const found: string[] = [];
  if (!fs.existsSync(dir)) return found;
  if (fs.statSync(dir).isFile()) return fs.readFileSync(dir, 'latin1').includes(text) ? [dir] : [];
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const file = path.join(d, e.name);
      if (file === skip) continue;
      try {
        if (e.isDirectory()) walk(file);
        else if (e.isFile()) {
          const st = fs.statSync(file);
          if (st.mtimeMs >= since && st.size < 4 << 20 && readWithoutAtime(file).toString('latin1').includes(text)) found.push(file);
        }
      } catch {
        // removed meanwhile, or not readable
      }
    }
  };
  walk(dir);
  return found;
}

describe('secrets: no plain text outside the managed file', () => {
  for (const mode of ['persistent', 'oneshot']) {
    it(`not in any process's argv during a run, nor in the files the run writes (${mode} mode)`, async () => {
      const since = Date.now() - 1000;
      const dir = tempDir('govern-secret-leak-');
      const host = sshKey(dir, 'host');
      const tree = path.join(dir, 'tree');
      const out = path.join(dir, 'out');
      fs.mkdirSync(out);
      const marker = path.join(dir, 'waiting');
      const release = path.join(dir, 'release');
      // Runs after the secret's file resource, while govern (and the persistent runner) still hold it.
      const wait = writeFile(path.join(dir, 'wait.sh'), `#!/bin/sh\ntouch '${marker}'\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\n`, 0o755);
      writeFile(path.join(tree, 'hierarchy.hcl'), 'levels = ["common"]\n');
      writeFile(path.join(tree, 'data/common.hcl'), `password = "${formatEncrypted({ to: ['host'], ciphertext: encrypt(PLAIN, [host.recipient]) })}"\n`);
      writeFile(path.join(tree, 'site.hcl'),
        `file "${out}/app.conf" {\n  ensure = "present"\n  contents = "pw={{data "password"}}\\n"\n  owner = "root"\n  group = "root"\n  mode = "0600"\n}\n` +
        `exec "${wait}" {\n  after = ["file:${out}/app.conf"]\n}\n`);
      const cache = path.join(dir, 'cache');
      const varDir = path.join(dir, 'var');
      const metrics = path.join(dir, 'govern.prom');

      // The argv of every process is read all along the run, and once more while it waits.
      let done = false;
      const seen: string[] = [];
      const watching = (async () => {
        while (!done) {
          seen.push(...cmdlinesHolding(PLAIN));
          if (fs.existsSync(marker) && !fs.existsSync(release)) {
            seen.push(...cmdlinesHolding(PLAIN));
            fs.writeFileSync(release, '');
          }
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const r = await govern(['run', tree, '-vv', '--json', '--runner-mode', mode, '--identity', host.identity, '--cache-dir', cache, '--var-dir', varDir, '--metrics-file', metrics]);
      done = true;
      await watching;
      expect(r.code, r.stderr).to.equal(0);
      expect(fs.existsSync(release), 'the run waited for the scan').to.equal(true);
      expect(seen).to.deep.equal([]);
      expect(fs.readFileSync(path.join(out, 'app.conf'), 'utf8')).to.equal(`pw=${PLAIN}\n`);
      expect(r.stdout + r.stderr).not.to.include(PLAIN);
      const managed = path.join(out, 'app.conf');
      expect(recentFilesHolding(dir, PLAIN, since, ''), 'the scan finds the managed file').to.deep.equal([managed]);
      for (const where of [cache, varDir, metrics, lockDir(), '/tmp']) {
        expect(recentFilesHolding(where, PLAIN, since, managed), where).to.deep.equal([]);
      }
    });
  }
});
