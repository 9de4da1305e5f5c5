// Modules from git, with real git repositories (signed with ssh-keygen's keys, or not): fetched and
// vendored, the lock keeping a moved tag out and a hand edit from being planned, dependencies
// resolved to one version each, and the vendored tree planned and applied with the repository gone.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { gitLab, must, type GitLab } from '../pull/git-lab.js';

const MOTD_MODULE = {
  'variables.hcl': 'variable "text" {\n  type = "string"\n}\nvariable "dir" {\n  type = "string"\n}\n',
  'motd.hcl': 'file "{{dir}}/motd" {\n  ensure   = "present"\n  contents = "{{text}}\\n"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n}\n',
};

async function tag(lab: GitLab, name: string, commit: string): Promise<void> {
  await must('git', [`--git-dir=${lab.bare}`, 'tag', '--force', name, commit]);
}

function tree(manifest: string, out: string): string {
  const root = tempDir('govern-modsrc-tree-');
  writeFile(path.join(root, 'modules.hcl'), manifest);
  writeFile(path.join(root, 'site.hcl'), `module "greeting" {\n  source = "motd"\n  text   = "hello"\n  dir    = "${out}"\n}\n`);
  return root;
}

const lockOf = (root: string) => JSON.parse(fs.readFileSync(path.join(root, 'modules.lock'), 'utf8')) as { modules: Record<string, { commit: string; ref: string; hash: string }> };

describe('modules from git: govern modules fetch, update, outdated', () => {
  it('vendors a module at a tag, records it in modules.lock, and the tree plans and runs with the repository gone', async () => {
    const lab = await gitLab();
    const commit = await lab.commit(MOTD_MODULE, 'unsigned');
    await tag(lab, 'v1.0.0', commit);
    const out = tempDir();
    const root = tree(`module_source "motd" {\n  git = "${lab.bare}"\n  ref = "v1.0.0"\n}\n`, out);
    const before = await govern(['plan', root]);
    expect(before.code).to.equal(1);
    expect(before.stdout + before.stderr).to.contain('"motd" is declared in modules.hcl but not vendored yet: run `govern modules fetch`');
    const fetched = await govern(['modules', 'fetch', root]);
    expect(fetched.code, fetched.stderr).to.equal(0);
    expect(fetched.stdout).to.equal(`motd: ${lab.bare} at v1.0.0 (commit ${commit.slice(0, 12)}): vendored\n`);
    expect(lockOf(root).modules.motd).to.include({ commit, ref: 'v1.0.0' });
    expect(fs.readFileSync(path.join(root, 'modules/motd/motd.hcl'), 'utf8')).to.equal(MOTD_MODULE['motd.hcl']);
    fs.rmSync(lab.dir, { recursive: true, force: true });
    const run = await govern(['run', root]);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(fs.readFileSync(path.join(out, 'motd'), 'utf8')).to.equal('hello\n');
    expect((await govern(['run', root, '--detailed-exitcodes'])).code, 'the second run changes nothing').to.equal(0);
  });

  it('checks the signature against allowed_signers inside the tree: a stranger\'s commit is refused and nothing is written #once', async () => {
    const lab = await gitLab();
    const good = await lab.commit(MOTD_MODULE, 'trusted');
    await tag(lab, 'v1.0.0', good);
    const bad = await lab.commit({ ...MOTD_MODULE, 'extra.hcl': '' }, 'stranger');
    await tag(lab, 'v1.1.0', bad);
    const manifest = (ref: string) => `module_source "motd" {\n  git             = "${lab.bare}"\n  ref             = "${ref}"\n  allowed_signers = "keys/modules"\n}\n`;
    const root = tree(manifest('v1.1.0'), tempDir());
    writeFile(path.join(root, 'keys/modules'), fs.readFileSync(lab.allowedSigners, 'utf8'));
    const refused = await govern(['modules', 'fetch', root]);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain(`modules.hcl:1: module_source "motd": refusing commit ${bad} of ${lab.bare} at v1.1.0: it is signed by a key that is not in the allowed signers file (allowed signers: keys/modules)`);
    expect(fs.readdirSync(path.join(root, 'modules'))).to.deep.equal([]);
    expect(fs.existsSync(path.join(root, 'modules.lock'))).to.equal(false);
    writeFile(path.join(root, 'modules.hcl'), manifest('v1.0.0'));
    const accepted = await govern(['modules', 'fetch', root]);
    expect(accepted.code, accepted.stderr).to.equal(0);
    expect(lockOf(root).modules.motd.commit).to.equal(good);
  });

  it('refuses a tag that moved to another commit until `govern modules update NAME` accepts it #once', async () => {
    const lab = await gitLab();
    const first = await lab.commit(MOTD_MODULE, 'unsigned');
    await tag(lab, 'v1.0.0', first);
    const root = tree(`module_source "motd" {\n  git = "${lab.bare}"\n  ref = "v1.0.0"\n}\n`, tempDir());
    expect((await govern(['modules', 'fetch', root])).code).to.equal(0);
    const moved = await lab.commit({ ...MOTD_MODULE, 'motd.hcl': MOTD_MODULE['motd.hcl'].replace('{{text}}', 'owned') }, 'unsigned');
    await tag(lab, 'v1.0.0', moved);
    const refused = await govern(['modules', 'fetch', root]);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain(`ref "v1.0.0" of ${lab.bare} now names commit ${moved}, and modules.lock has ${first}: the ref moved. Check why, then accept it with \`govern modules update motd\``);
    expect(lockOf(root).modules.motd.commit).to.equal(first);
    expect(fs.readFileSync(path.join(root, 'modules/motd/motd.hcl'), 'utf8')).to.contain('{{text}}');
    const updated = await govern(['modules', 'update', 'motd', root]);
    expect(updated.code, updated.stderr).to.equal(0);
    expect(updated.stdout).to.contain(`: updated from ${first.slice(0, 12)}`);
    expect(lockOf(root).modules.motd.commit).to.equal(moved);
    expect(fs.readFileSync(path.join(root, 'modules/motd/motd.hcl'), 'utf8')).to.contain('owned');
  });

  it('plan refuses a vendored module edited by hand, and fetch puts its files back #once', async () => {
    const lab = await gitLab();
    await tag(lab, 'v1', await lab.commit(MOTD_MODULE, 'unsigned'));
    const root = tree(`module_source "motd" {\n  git = "${lab.bare}"\n  ref = "v1"\n}\n`, tempDir());
    expect((await govern(['modules', 'fetch', root])).code).to.equal(0);
    fs.appendFileSync(path.join(root, 'modules/motd/motd.hcl'), '# local fix\n');
    const plan = await govern(['plan', root]);
    expect(plan.code).to.equal(1);
    expect(plan.stderr).to.contain('modules/motd: its files no longer match modules.lock (vendored from');
    const restored = await govern(['modules', 'fetch', root]);
    expect(restored.stdout).to.contain(': restored');
    expect((await govern(['plan', root])).code).to.equal(0);
  });

  it("resolves a module's own modules.hcl, and refuses two versions of one module, naming both #once", async () => {
    const base = await gitLab();
    await tag(base, 'v1', await base.commit({ 'x.hcl': '' }, 'unsigned'));
    await tag(base, 'v2', await base.commit({ 'x.hcl': '# two\n' }, 'unsigned'));
    const needs = async (ref: string) => {
      const lab = await gitLab();
      await tag(lab, 'v1', await lab.commit({ ...MOTD_MODULE, 'modules.hcl': `module_source "base" {\n  git = "${base.bare}"\n  ref = "${ref}"\n}\n` }, 'unsigned'));
      return lab;
    };
    const a = await needs('v1');
    const b = await needs('v2');
    const one = tree(`module_source "motd" {\n  git = "${a.bare}"\n  ref = "v1"\n}\n`, tempDir());
    const ok = await govern(['modules', 'fetch', one]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(Object.keys(lockOf(one).modules)).to.deep.equal(['base', 'motd']);
    const both = tree(`module_source "motd" {\n  git = "${a.bare}"\n  ref = "v1"\n}\nmodule_source "other" {\n  git = "${b.bare}"\n  ref = "v1"\n}\n`, tempDir());
    const conflict = await govern(['modules', 'fetch', both]);
    expect(conflict.code).to.equal(1);
    expect(conflict.stderr).to.contain(`${path.join(both, 'modules/other/modules.hcl')}:1: module "base" is asked for twice, differently: ${base.bare} at v2 here, ${base.bare} at v1 at ${path.join(both, 'modules/motd/modules.hcl')}:1`);
    expect(fs.readdirSync(path.join(both, 'modules'))).to.deep.equal([]);
  });

  it('takes a full commit id as the commit, even where a branch has that name; refuses links; lists newer tags #once', async () => {
    const lab = await gitLab();
    const pinned = await lab.commit(MOTD_MODULE, 'unsigned');
    await tag(lab, 'v1.2.0', pinned);
    const other = await lab.commit({ ...MOTD_MODULE, 'evil.hcl': '' }, 'unsigned');
    await must('git', [`--git-dir=${lab.bare}`, 'branch', pinned, other]);
    await tag(lab, 'v1.10.0', other);
    await tag(lab, 'v1.3.0', other);
    const root = tree(`module_source "motd" {\n  git = "${lab.bare}"\n  ref = "${pinned}"\n}\n`, tempDir());
    const fetched = await govern(['modules', 'fetch', root]);
    expect(fetched.code, fetched.stderr).to.equal(0);
    expect(lockOf(root).modules.motd.commit).to.equal(pinned);
    expect(fs.existsSync(path.join(root, 'modules/motd/evil.hcl'))).to.equal(false);
    writeFile(path.join(root, 'modules.hcl'), `module_source "motd" {\n  git = "${lab.bare}"\n  ref = "v1.2.0"\n}\n`);
    const outdated = await govern(['modules', 'outdated', root]);
    expect(outdated.code, outdated.stderr).to.equal(0);
    expect(outdated.stdout).to.equal('motd: v1.2.0 -> v1.10.0 (newer: v1.3.0, v1.10.0)\n');
    fs.symlinkSync('/etc/shadow', path.join(lab.work, 'shadow.hcl'));
    await must('git', ['-C', lab.work, 'add', '--all']);
    await must('git', ['-C', lab.work, 'commit', '--quiet', '--no-gpg-sign', '-m', 'link']);
    await must('git', ['-C', lab.work, 'push', '--quiet', '--force', lab.bare, 'HEAD:refs/tags/v2.0.0']);
    writeFile(path.join(root, 'modules.hcl'), `module_source "motd" {\n  git = "${lab.bare}"\n  ref = "v2.0.0"\n}\n`);
    const link = await govern(['modules', 'fetch', root]);
    expect(link.code).to.equal(1);
    expect(link.stderr).to.contain('holds "shadow.hcl (a link)": a vendored module holds only files and directories');
    expect(lockOf(root).modules.motd.commit, 'the lock is unchanged').to.equal(pinned);
  });

  it('reports every problem of modules.hcl at its line #once', async () => {
    const root = tree('module_source "motd" {\n  gti = "x"\n}\nmodule_source "bad name" {\n  path = "x"\n}\nmodule_source "web" {\n  git = "https://example.org/web.git"\n}\n', tempDir());
    const r = await govern(['modules', 'fetch', root]);
    expect(r.code).to.equal(1);
    const file = path.join(root, 'modules.hcl');
    expect(r.stderr).to.contain(`${file}:2: module_source "motd": unknown attribute "gti" (did you mean "git"?)`);
    expect(r.stderr).to.contain(`${file}:4: module_source takes one label`);
    expect(r.stderr).to.contain(`${file}:7: module_source "web": git needs ref = "TAG"`);
  });
});
