// `govern pull`'s trust beyond the signature: no rollback (a commit must descend from the tree's),
// an anchor for the first pull, a commit bound to the ref its signer named, an allowed signers file
// only root can change, and every outcome recorded for `govern status`. Keys from ssh-keygen,
// commits signed by git, in real repositories (git-lab.ts).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { PullRecord } from '../../src/record/last-pull.js';
import { govern } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { gitLab, must, type GitLab } from './git-lab.js';

const tree = (v: string) => ({ 'a.hcl': `# ${v}\n` });

describe('govern pull: rollbacks, anchors, environments, the signers file, the record', function () {
  this.timeout(120_000);
  let lab: GitLab;
  let varDir: string;
  let dir: string;
  beforeEach(async () => {
    lab = await gitLab();
    const place = tempDir('govern-pull-trust-');
    varDir = path.join(place, 'var');
    dir = path.join(place, 'states');
  });

  const pull = (extra: string[] = []) => govern(['pull', '--var-dir', varDir, '--allowed-signers', lab.allowedSigners, ...extra, lab.bare, dir]);
  const at = () => path.basename(fs.realpathSync(dir));
  const lastPull = () => JSON.parse(fs.readFileSync(path.join(varDir, 'last-pull.json'), 'utf8')) as PullRecord;
  const status = () => govern(['status', '--var-dir', varDir]);
  const recordRun = async () => expect((await govern(['run', dir, '--var-dir', varDir])).code).to.equal(0);

  it('refuses a rollback to an older signed commit (exit 1, DIR kept, status CRITICAL naming it); --allow-rollback takes it, with a warning and a record', async () => {
    const a = await lab.commit(tree('a'), 'trusted');
    expect((await pull()).code).to.equal(0);
    const b = await lab.commit(tree('b'), 'trusted');
    expect((await pull()).code).to.equal(0);
    await recordRun();
    await lab.push(a);
    const r = await pull();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: refusing commit ${a} of ${lab.bare}: it is older than the current commit ${b} (a rollback); --allow-rollback takes it; ${dir} stays at ${b}\n`);
    expect(at()).to.equal(b);
    expect(lastPull()).to.include({ outcome: 'rollback', commit: a, current: b, repo: lab.bare, dir });
    const critical = await status();
    expect(critical.code).to.equal(2);
    expect(critical.stdout).to.match(new RegExp(`^GOVERN CRITICAL - the last pull, \\S+ ago, was a rollback attempt, refused: refusing commit ${a} of `));

    const back = await pull(['--allow-rollback']);
    expect(back.code, back.stderr).to.equal(0);
    expect(back.stderr).to.equal(`govern: ${dir}: rolled back from ${b} to ${a}, which does not descend from it (--allow-rollback) (signed by ops@example.org)\n`);
    expect(at()).to.equal(a);
    expect(lastPull()).to.include({ outcome: 'rolled-back', commit: a, current: a });
    expect((await status()).code).to.equal(0);
  });

  it('refuses a commit of a rewritten history (signed, but not descending from the current one)', async () => {
    const a = await lab.commit(tree('a'), 'trusted');
    const b = await lab.commit(tree('b'), 'trusted');
    expect((await pull()).code).to.equal(0);
    expect(at()).to.equal(b);
    // A new line of history from a: signed by the trusted key, but b is not in it.
    await must('git', ['-C', lab.work, 'reset', '--quiet', '--hard', a]);
    const c = await lab.commit(tree('c'), 'trusted');
    const r = await pull();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`refusing commit ${c} of ${lab.bare}: it does not descend from the current commit ${b} (the history was rewritten)`);
    expect(at()).to.equal(b);
  });

  it('--anchor: the first pull, and every one after, takes only a commit that descends from the anchor', async () => {
    const old = await lab.commit(tree('old'), 'trusted');
    const anchor = await lab.commit(tree('anchor'), 'trusted');
    await lab.push(old);
    const first = await pull(['--anchor', anchor]);
    expect(first.code).to.equal(1);
    expect(first.stderr).to.equal(`govern: refusing commit ${old} of ${lab.bare}: it does not descend from the anchor commit ${anchor} (not in the fetched history); ${dir} stays absent\n`);
    expect(fs.existsSync(dir)).to.equal(false);
    expect(lastPull()).to.include({ outcome: 'rollback', commit: old });
    expect(lastPull().current).to.equal(undefined);
    await lab.push(anchor);
    expect((await pull(['--anchor', anchor])).code).to.equal(0);
    const next = await lab.commit(tree('next'), 'trusted');
    expect((await govern(['pull', '--var-dir', varDir, '--allowed-signers', lab.allowedSigners, lab.bare, dir], { env: { GOVERN_PULL_ANCHOR: anchor } })).code).to.equal(0);
    expect(at()).to.equal(next);
    const short = await pull(['--anchor', anchor.slice(0, 12)]);
    expect(short.stderr).to.include('--anchor must be a whole commit id');
  });

  it('with --ref, takes only a commit whose signed message names that ref (Govern-Ref), not one signed for another environment', async () => {
    const prod = await lab.commit(tree('prod'), 'trusted', 'production', ['Govern-Ref: production']);
    const r1 = await pull(['--ref', 'production']);
    expect(r1.code, r1.stderr).to.equal(0);
    // Signed for staging, a fast-forward of production: pushed onto production by someone with push access only.
    const staging = await lab.commit(tree('staging'), 'trusted', 'staging', ['Govern-Ref: staging']);
    await lab.push(staging, 'production');
    const r2 = await pull(['--ref', 'production']);
    expect(r2.code).to.equal(1);
    expect(r2.stderr).to.equal(
      `govern: refusing commit ${staging} of ${lab.bare}: its signed message names "staging", not "Govern-Ref: production" (a commit is accepted only on the refs its signer named); ${dir} stays at ${prod}\n`,
    );
    expect(lastPull()).to.include({ outcome: 'refused', commit: staging, ref: 'production' });
    await recordRun();
    const warning = await status();
    expect(warning.code).to.equal(1);
    expect(warning.stdout).to.include(`GOVERN WARNING - the last pull, `);
    expect(warning.stdout).to.include(`was refused: refusing commit ${staging} of`);
    // A commit meant for both, and one without a trailer (before the trailer was in use: --any-ref).
    const both = await lab.commit(tree('both'), 'trusted', 'production', ['Govern-Ref: staging', 'Govern-Ref: refs/heads/production']);
    expect((await pull(['--ref', 'production'])).code).to.equal(0);
    expect(at()).to.equal(both);
    const bare = await lab.commit(tree('bare'), 'trusted', 'production');
    expect((await pull(['--ref', 'production'])).stderr).to.include(`refusing commit ${bare} of ${lab.bare}: its signed message has no Govern-Ref trailer`);
    expect((await pull(['--ref', 'production', '--any-ref'])).code).to.equal(0);
    expect(at()).to.equal(bare);
    expect((await status()).code).to.equal(0);
  });

  for (const [what, spoil] of [
    ['writable by anyone', (file: string) => fs.chmodSync(file, 0o666)],
    ['owned by another user', (file: string) => fs.chownSync(file, 65534, 65534)],
    ['in a directory another user can write', (file: string) => fs.chmodSync(path.dirname(file), 0o777)],
  ] as const) {
    it(`refuses an allowed signers file ${what}, before fetching anything`, async () => {
      await lab.commit(tree('a'), 'trusted');
      spoil(lab.allowedSigners);
      const r = await pull();
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(new RegExp(`^govern: --allowed-signers: refusing the allowed signers file ${lab.allowedSigners}: .*; it must be owned by root`));
      expect(fs.existsSync(dir)).to.equal(false);
      expect(fs.existsSync(path.join(varDir, 'pull'))).to.equal(false);
      expect(lastPull()).to.include({ outcome: 'refused' });
    });
  }

  it('records a fetch that fails (status WARNING), and clears it with the next good pull', async () => {
    await lab.commit(tree('a'), 'trusted');
    expect((await pull()).code).to.equal(0);
    expect(lastPull()).to.include({ outcome: 'pulled' });
    await recordRun();
    const missing = path.join(lab.dir, 'gone.git');
    const r = await govern(['pull', '--var-dir', varDir, missing, dir]);
    expect(r.code).to.equal(1);
    expect(lastPull()).to.include({ outcome: 'failed', repo: missing });
    expect(fs.statSync(path.join(varDir, 'last-pull.json')).mode & 0o777).to.equal(0o644);
    const s = await status();
    expect(s.code).to.equal(1);
    expect(s.stdout).to.match(/^GOVERN WARNING - the last pull, \S+ ago, failed: cannot fetch the default branch from /);
    expect((await pull()).code).to.equal(0);
    expect(lastPull()).to.include({ outcome: 'unchanged' });
    expect((await status()).code).to.equal(0);
  });
});
