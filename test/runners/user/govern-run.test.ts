// `govern run` with the real user and group runners against the real shadow-utils, in both runner
// modes: a group and a user in it created, converged property by property, removed; noop and
// second runs change nothing; refusals come before anything is applied; the hash is never shown.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';
import { accountChecksums, entry, removeAccounts, runState, sha512Hash } from './support.js';
import { hostExclusive } from '../../support/host-lock.js';

const USER = 'govtest17-deploy';
const GROUP = 'govtest17-team';
const EXTRA = 'govtest17-extra';
const OTHER = 'govtest17-other';
const HOME = `/home/${USER}`;

function tree(options: { password: string; uid?: number; shell?: string; groups?: string; comment?: string; members?: string }): string {
  return `group "${GROUP}" {
  gid = 61751
}

group "${EXTRA}" {
  ${options.members ?? ''}
}

group "${OTHER}" {
}

user "${USER}" {
  uid        = ${options.uid ?? 61751}
  group      = "${GROUP}"
  groups     = ${options.groups ?? `["${EXTRA}"]`}
  home       = "${HOME}"
  managehome = true
  shell      = "${options.shell ?? '/bin/bash'}"
  comment    = "${options.comment ?? 'Deploy user'}"
  password   = "${options.password}"
}
`;
}

const absentTree = `user "${USER}" {
  ensure     = "absent"
  managehome = true
  group      = "${GROUP}"
  groups     = ["${EXTRA}"]
}

group "${GROUP}" {
  ensure = "absent"
}

group "${EXTRA}" {
  ensure = "absent"
}

group "${OTHER}" {
  ensure = "absent"
}
`;

describe('govern run with the user and group runners', function () {
  hostExclusive();
  this.timeout(120_000);
  const cleanup = () => removeAccounts([USER], [GROUP, EXTRA, OTHER]);
  before(cleanup);
  afterEach(cleanup);

  for (const mode of ['persistent', 'oneshot']) {
    it(`creates, converges and removes a group and a user in it; noop and second runs change nothing (${mode} runners)`, async () => {
      const hash = await sha512Hash('govtest17 secret');
      const flags = ['--runner-mode', mode];
      const before = accountChecksums();

      const noop = await runState(tree({ password: hash }), [...flags, '--noop']);
      expect(noop.code, noop.stdout + noop.stderr).to.equal(0);
      expect(noop.report.resources.map((r) => r.message)).to.deep.equal([
        `Would have created group ${GROUP} (gid 61751)`,
        `Would have created group ${EXTRA}`,
        `Would have created group ${OTHER}`,
        `Would have created user ${USER} (uid 61751, group ${GROUP}, groups ${EXTRA}, home ${HOME} (created))`,
      ]);
      expect(accountChecksums()).to.deep.equal(before);

      const first = await runState(tree({ password: hash }), flags);
      expect(first.code, first.stdout).to.equal(0);
      expect(first.report.summary).to.include({ changed: 4, failed: 0 });
      expect(await entry('passwd', USER)).to.deep.equal([USER, 'x', '61751', '61751', 'Deploy user', HOME, '/bin/bash']);
      expect((await entry('group', EXTRA))?.[3]).to.equal(USER);
      expect((await entry('shadow', USER))?.[1]).to.equal(hash);
      expect(fs.statSync(HOME).uid).to.equal(61751);
      const created = accountChecksums();

      const second = await runState(tree({ password: hash }), flags);
      expect(second.report.summary).to.include({ changed: 0, unchanged: 4, failed: 0 });
      expect(second.report.resources[3].message).to.equal(`user ${USER} up to date`);
      expect(accountChecksums()).to.deep.equal(created);

      // Every property on its own: uid, shell, comment, groups (exact), password.
      const newHash = await sha512Hash('govtest17 other secret');
      const changedTree = tree({ password: newHash, uid: 61752, shell: '/bin/sh', comment: 'Deployer', groups: `["${OTHER}"]` });
      const noopChange = await runState(changedTree, [...flags, '--noop']);
      expect(noopChange.report.resources[3].message).to.equal(
        `Would have changed uid 61751 -> 61752 (files outside ${HOME} still owned by uid 61751 were not changed), groups +${OTHER} -${EXTRA}, shell /bin/bash -> /bin/sh, comment "Deploy user" -> "Deployer", password`,
      );
      expect(accountChecksums()).to.deep.equal(created);
      const change = await runState(changedTree, flags);
      expect(change.code, change.stdout).to.equal(0);
      expect(change.report.summary).to.include({ changed: 1, unchanged: 3 });
      expect(await entry('passwd', USER)).to.deep.equal([USER, 'x', '61752', '61751', 'Deployer', HOME, '/bin/sh']);
      expect((await entry('group', EXTRA))?.[3]).to.equal('');
      expect((await entry('group', OTHER))?.[3]).to.equal(USER);
      expect((await entry('shadow', USER))?.[1]).to.equal(newHash);
      expect(fs.statSync(HOME).uid, 'usermod -u re-owns the home').to.equal(61752);

      // The hashes never appear in what govern prints, with -vv or in JSON.
      const verbose = await govern(['run', '-vv', '--runner-mode', mode, writeFile(path.join(tempDir('govtest17-'), 'a.hcl'), changedTree)]);
      for (const text of [noop.stdout, first.stdout, change.stdout, noopChange.stdout, verbose.stdout, verbose.stderr]) {
        expect(text).not.to.include(hash.slice(20));
        expect(text).not.to.include(newHash.slice(20));
      }
      expect(verbose.stdout).to.include('password\\=\\<sensitive\\>');

      const removed = await runState(absentTree, flags);
      expect(removed.code, removed.stdout).to.equal(0);
      expect(removed.report.resources.map((r) => r.message)).to.deep.equal([
        `removed user ${USER} and its home ${HOME}`,
        `removed group ${GROUP}`,
        `removed group ${EXTRA}`,
        `removed group ${OTHER}`,
      ]);
      expect(await entry('passwd', USER)).to.equal(undefined);
      expect(await entry('group', GROUP)).to.equal(undefined);
      expect(fs.existsSync(HOME)).to.equal(false);
      const gone = accountChecksums();
      const again = await runState(absentTree, flags);
      expect(again.report.summary).to.include({ changed: 0, unchanged: 4 });
      expect(accountChecksums()).to.deep.equal(gone);
    });
  }

  it('orders a user after its groups, and before them when they are removed (govern graph)', async () => {
    const dir = tempDir('govtest17-');
    const present = writeFile(path.join(dir, 'present', 'a.hcl'), tree({ password: '!' }));
    const graph = await govern(['graph', path.dirname(present)]);
    expect(graph.stdout).to.include(`"group:${GROUP}" -> "user:${USER}" [label="autorequire"]`);
    expect(graph.stdout).to.include(`"group:${EXTRA}" -> "user:${USER}" [label="autorequire"]`);
    const absent = writeFile(path.join(dir, 'absent', 'a.hcl'), `group "${GROUP}" {\n  ensure = "absent"\n}\n\nuser "${USER}" {\n  ensure = "absent"\n  group  = "${GROUP}"\n}\n`);
    // An absent user's group only orders the removal: the user goes first.
    const both = await govern(['graph', path.dirname(absent)]);
    expect(both.code, both.stderr).to.equal(0);
    expect(both.stdout).to.include(`"user:${USER}" -> "group:${GROUP}" [label="autorequire"]`);
    const reversed = writeFile(path.join(dir, 'rev', 'a.hcl'), `group "${GROUP}" {\n  ensure = "absent"\n}\n\nuser "${USER}" {\n  ensure = "absent"\n  group = "${GROUP}"\n}\n`);
    const rev = await govern(['graph', path.dirname(reversed)]);
    expect(rev.stdout).to.include(`"user:${USER}" -> "group:${GROUP}" [label="autorequire"]`);
    // A user the tree keeps, in a group it removes: the next run would fail; refused while planning.
    const kept = writeFile(path.join(dir, 'kept', 'a.hcl'), `group "${GROUP}" {\n  ensure = "absent"\n}\n\nuser "${USER}" {\n  group = "${GROUP}"\n}\n`);
    const contradiction = await govern(['run', '--noop', path.dirname(kept)]);
    expect(contradiction.code).to.equal(1);
    expect(contradiction.stderr).to.include(`a.hcl:6: user:${USER}: group names group:${GROUP}, which this tree removes (ensure = "absent", at ${kept}:1)`);
  });

  for (const mode of ['persistent', 'oneshot']) {
    it(`refuses a clear password, a bad hash and a bad name before anything is applied (${mode} runners)`, async () => {
      const before = accountChecksums();
      const dir = tempDir('govtest17-');
      writeFile(path.join(dir, 'a.hcl'), `group "${GROUP}" {\n}\n\nuser "${USER}" {\n  password = "hunter2-clear"\n}\n\nuser "Bad Name" {\n}\n\nuser "govtest17-x" {\n  password = "$6$salt$tooshort"\n  groups   = ["Nope"]\n}\n`);
      const r = await govern(['run', '--runner-mode', mode, dir]);
      expect(r.code).to.equal(1);
      const text = r.stdout + r.stderr;
      expect(text).to.match(/a\.hcl:5: .*password is not a crypt\(3\) hash/);
      expect(text).to.match(/a\.hcl:8: .*"Bad Name" is not an account name/);
      expect(text).to.match(/a\.hcl:12: .*password is not a crypt\(3\) hash/);
      expect(text).to.match(/a\.hcl:13: .*"Nope" is not an account name/);
      expect(text).not.to.include('hunter2-clear');
      expect(text).not.to.include('tooshort');
      expect(accountChecksums()).to.deep.equal(before);
      expect(await entry('group', GROUP)).to.equal(undefined);
    });
  }

  it('refuses what useradd can never write in /etc/passwd (":" or a line break in home or shell, control characters in comment) while planning, --noop too', async () => {
    const dir = tempDir('govtest17-');
    writeFile(path.join(dir, 'a.hcl'), `user "${USER}" {\n  home    = "/home/a:b"\n  shell   = "/bin/sh\\nroot"\n  comment = "Name\\u0007bell"\n}\n\nuser "${OTHER}" {\n  home    = "/home/x\\ny"\n  shell   = "/bin/sh:x"\n  comment = "Tab\\there"\n}\n`);
    for (const extra of [['--noop'], []]) {
      const r = await govern(['run', ...extra, dir]);
      expect(r.code).to.equal(1);
      expect(r.stdout).not.to.include('Would have created');
      expect(r.stderr).to.match(/a\.hcl:2: .*home "\/home\/a:b" is not a clean absolute path without ":" or control characters/);
      expect(r.stderr).to.match(/a\.hcl:3: .*shell "\/bin\/sh\\nroot" is not a clean absolute path without ":"/);
      expect(r.stderr).to.match(/a\.hcl:4: .*comment "Name\\u0007bell" is not a text without ":" or control characters/);
      expect(r.stderr).to.match(/a\.hcl:8: .*home/);
      expect(r.stderr).to.match(/a\.hcl:9: .*shell/);
      expect(r.stderr).to.match(/a\.hcl:10: .*comment/);
    }
    // Other tests on the machine may add accounts meanwhile: these two, at least, were never made.
    expect(await entry('passwd', USER)).to.equal(undefined);
    expect(await entry('passwd', OTHER)).to.equal(undefined);
  });

  it('does not remove a user with running processes, nor a group that is a user\'s primary group', async () => {
    const made = await runState(`group "${GROUP}" {\n}\n\nuser "${USER}" {\n  group = "${GROUP}"\n}\n`);
    expect(made.code, made.stdout).to.equal(0);
    const uid = Number((await entry('passwd', USER))![2]);
    const sleeper = spawn('sleep', ['60'], { uid, stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = accountChecksums();
      const r = await runState(`user "${USER}" {\n  ensure = "absent"\n}\n`);
      expect(r.code).to.equal(1);
      expect(r.report.resources[0].message).to.match(new RegExp(`^user ${USER} has running processes \\(pid ${sleeper.pid} \\(sleep\\)\\); govern does not stop them`));
      const g = await runState(`group "${GROUP}" {\n  ensure = "absent"\n}\n`);
      expect(g.code).to.equal(1);
      expect(g.report.resources[0].message).to.equal(`group ${GROUP} is the primary group of user ${USER}: give it another group or remove it first`);
      expect(accountChecksums()).to.deep.equal(before);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
