// purge = true on the directory another runner writes in, through govern run: `file "/etc/cron.d"`
// beside `cron "NAME"` keeps the job's file (the cron runner's description says it writes
// /etc/cron.d/NAME), `file "/root/.ssh"` beside `authorized_key` keeps authorized_keys (the home
// from the accounts database), and each removes only what no resource writes, noop naming only
// that. The runs are in a private mount namespace with a tmpfs over the directory (over /root), so
// the machine's own files are never touched.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../../src/report/types.js';
import { runCommand } from '../../../src/shared/process.js';
import { GOVERN, TEST_VAR_DIR } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { hostExclusive } from '../../support/host-lock.js';

const JOB = 'govern-purge-writes';
/** A public key's base64 (any valid base64 of a key line will do: sshd is not asked). */
const KEY = 'AAAAC3NzaC1lZDI1NTE5AAAAIGovZXJuLXB1cmdlLXdyaXRlcy10ZXN0LWtleS0wMDAw';

const DIRECTORY = (name: string, mode: string) =>
  `file "${name}" {\n  ensure = "directory"\n  owner = "root"\n  group = "root"\n  mode = "${mode}"\n  purge = true\n}\n`;

interface Outcome {
  noop: RunReport;
  real: RunReport;
  afterNoop: string[];
  afterRun: string[];
  read(name: string): string;
}

/**
 * Runs the tree, noop then for real, in a private mount namespace with a tmpfs over `over` (filled by
 * `setup`, shell lines), and lists `dir` after each; what the tests read is copied out as it ends.
 */
async function inNamespace(mode: string, over: string, overMode: string, setup: string[], tree: string, dir: string, keep: string[]): Promise<Outcome> {
  const out = tempDir('govern-purge-writes-');
  const states = writeFile(path.join(out, 'states', 'tree.hcl'), tree);
  // A checkout under the directory the tmpfs covers (as under /root) is bound back over it, so
  // that govern and its runners are still there.
  const repo = path.dirname(path.dirname(GOVERN));
  const hidden = repo === over || repo.startsWith(`${over}/`);
  const script = [
    'set -e',
    ...(hidden ? [`mkdir "$OUT/checkout"`, `mount --bind ${repo} "$OUT/checkout"`] : []),
    `mount -t tmpfs -o mode=${overMode} tmpfs ${over}`,
    ...(hidden ? [`mkdir -p ${repo}`, `mount --bind "$OUT/checkout" ${repo}`] : []),
    ...setup,
    '"$GOVERN_BIN" run --noop --json --runner-mode "$MODE" "$STATES" > "$OUT/noop.json" || true',
    `ls -A ${dir} > "$OUT/after-noop"`,
    '"$GOVERN_BIN" run --json --runner-mode "$MODE" "$STATES" > "$OUT/real.json" || true',
    `ls -A ${dir} > "$OUT/after-run"`,
    ...keep.map((file, i) => `cat ${file} > "$OUT/kept-${i}"`),
  ].join('\n');
  const env = { GOVERN_VAR_DIR: TEST_VAR_DIR, ...process.env, GOVERN_BIN: GOVERN, MODE: mode, STATES: states, OUT: out };
  // One namespace for the whole sequence: its tmpfs goes when the shell ends.
  const r = await runCommand('unshare', ['-m', 'sh', '-c', script], { env, timeoutMs: 100_000 });
  expect(r.code, r.stderr).to.equal(0);
  const read = (name: string) => fs.readFileSync(path.join(out, name), 'utf8');
  const list = (name: string) => read(name).split('\n').filter(Boolean).sort();
  return { noop: JSON.parse(read('noop.json')), real: JSON.parse(read('real.json')), afterNoop: list('after-noop'), afterRun: list('after-run'), read };
}

describe('file runner: purge = true keeps what other runners write', function () {
  hostExclusive();
  this.timeout(120_000);

  for (const mode of ['persistent', 'oneshot']) {
    it(`cron in /etc/cron.d: keeps the job's file, removes the stray one, noop first (${mode} runners)`, async () => {
      const setup = [`echo '# left over' > /etc/cron.d/stray`, `echo '# an older version of the job' > /etc/cron.d/${JOB}`];
      const tree = DIRECTORY('/etc/cron.d', '0755') + `cron "${JOB}" {\n  command = "/bin/true"\n  hour = "3"\n}\n`;
      const o = await inNamespace(mode, '/etc/cron.d', '0755', setup, tree, '/etc/cron.d', [`/etc/cron.d/${JOB}`]);

      expect(o.noop.resources.map((x) => x.ref)).to.deep.equal(['file:/etc/cron.d', `cron:${JOB}`]);
      expect(o.noop.resources[0].message).to.equal('Would have removed 1 entry not managed: stray');
      expect(o.noop.resources[1].message).to.match(new RegExp(`^Would have changed /etc/cron.d/${JOB}`));
      expect(o.afterNoop).to.deep.equal([JOB, 'stray']);

      expect(o.real.resources[0].message).to.equal('removed 1 entry not managed: stray');
      expect(o.real.summary).to.include({ failed: 0 });
      expect(o.afterRun).to.deep.equal([JOB]);
      expect(o.read('kept-0')).to.include('* 3 * * * root /bin/true');
    });
  }

  it('authorized_key in ~root/.ssh: the home looked up in the accounts database, authorized_keys kept', async () => {
    const setup = ['mkdir -m 0700 /root/.ssh', `echo 'ssh-ed25519 ${KEY} kept' > /root/.ssh/authorized_keys`, 'echo stray > /root/.ssh/id_stray'];
    const tree = DIRECTORY('/root/.ssh', '0700') + `authorized_key "purge-writes" {\n  user = "root"\n  type = "ssh-ed25519"\n  key = "${KEY}"\n}\n`;
    const o = await inNamespace('persistent', '/root', '0700', setup, tree, '/root/.ssh', ['/root/.ssh/authorized_keys']);
    expect(o.noop.resources[0].message).to.equal('Would have removed 1 entry not managed: id_stray');
    expect(o.afterNoop).to.deep.equal(['authorized_keys', 'id_stray']);
    expect(o.real.resources[0].message).to.equal('removed 1 entry not managed: id_stray');
    expect(o.real.summary).to.include({ failed: 0 });
    expect(o.afterRun).to.deep.equal(['authorized_keys']);
    expect(o.read('kept-0')).to.equal(`ssh-ed25519 ${KEY} purge-writes\n`);
  });
});
