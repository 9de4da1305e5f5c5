// The user runner's decision table, row by row, and what its description refuses before anything is
// applied (names, clear passwords, hashes of the wrong shape).
import { expect } from 'chai';
import { checkArguments } from '../../../src/shared/arguments.js';
import { Params } from '../../../src/shared/protocol.js';
import { planMessage } from '../../../src/runners/lib/accounts/plan.js';
import { decide, mismatches, type CurrentUser, type DesiredUser } from '../../../src/runners/user/decide.js';
import { description } from '../../../src/runners/user/description.js';

const SHA512 = '$6$saltsalt$' + 'a'.repeat(86);
const desired = (extra: Partial<DesiredUser> = {}): DesiredUser => ({ name: 'deploy', ensure: 'present', groupsMode: 'exact', manageHome: false, system: false, ...extra });
const existing = (extra: Partial<Extract<CurrentUser, { exists: true }>> = {}): CurrentUser => ({
  exists: true,
  uid: 1500,
  gid: 1500,
  groupName: 'deploy',
  groups: ['adm'],
  home: '/home/deploy',
  shell: '/bin/sh',
  comment: 'Deploy',
  password: SHA512,
  processes: [],
  ...extra,
});

describe('user runner decision #once', () => {
  it('absent: nothing when missing, userdel when present (with -r under managehome), refused with running processes', () => {
    expect(decide(desired({ ensure: 'absent' }), { exists: false })).to.include({ changed: false, summary: 'user deploy already absent' });
    expect(decide(desired({ ensure: 'absent' }), existing())).to.deep.include({ changed: true, action: { kind: 'remove', removeHome: false }, summary: 'removed user deploy' });
    expect(decide(desired({ ensure: 'absent', manageHome: true }), existing()).summary).to.equal('removed user deploy and its home /home/deploy');
    expect(() => decide(desired({ ensure: 'absent' }), existing({ processes: [{ pid: 42, command: 'bash' }] }))).to.throw(/user deploy has running processes \(pid 42 \(bash\)\); govern does not stop them/);
  });

  it('present and missing: create, with what it gives in the message but never the password', () => {
    const plan = decide(desired({ uid: 1500, group: { label: 'deploy', gid: 1500 }, groups: ['adm', 'www-data'], home: '/srv/deploy', manageHome: true, password: SHA512, system: true }), { exists: false });
    expect(plan.action).to.deep.equal({ kind: 'create' });
    expect(plan.summary).to.equal('created system user deploy (uid 1500, group deploy, groups adm,www-data, home /srv/deploy (created))');
    expect(planMessage(plan, true)).to.equal(`Would have ${plan.summary}`);
    expect(plan.summary).not.to.include('$6$');
  });

  it('present and matching: unchanged, whatever is left out', () => {
    const all = desired({ uid: 1500, group: { label: 'deploy', gid: 1500 }, groups: ['adm'], home: '/home/deploy', shell: '/bin/sh', comment: 'Deploy', password: SHA512 });
    expect(decide(all, existing())).to.include({ changed: false, summary: 'user deploy up to date' });
    expect(decide(desired(), existing())).to.include({ changed: false });
    expect(mismatches(all, existing())).to.deep.equal([]);
  });

  it('each property converges on its own, and an id change says what it left behind', () => {
    const one = (extra: Partial<DesiredUser>, current = existing()) => decide(desired(extra), current);
    expect(one({ uid: 1600 })).to.deep.include({ action: { kind: 'modify', changes: [{ key: 'uid', to: 1600 }] } });
    expect(one({ uid: 1600 }).summary).to.equal('changed uid 1500 -> 1600 (files outside /home/deploy still owned by uid 1500 were not changed)');
    expect(one({ group: { label: 'staff', gid: 50 } }).summary).to.equal('changed group deploy -> staff (files outside /home/deploy still owned by group deploy were not changed)');
    expect(one({ group: { label: '50', gid: 50 } }).action).to.deep.equal({ kind: 'modify', changes: [{ key: 'group', to: '50' }] });
    expect(one({ home: '/srv/d' }).summary).to.equal('changed home /home/deploy -> /srv/d (not moved: managehome is false)');
    expect(one({ home: '/srv/d', manageHome: true }).action).to.deep.equal({ kind: 'modify', changes: [{ key: 'home', to: '/srv/d', move: true }] });
    expect(one({ shell: '/bin/bash' }).summary).to.equal('changed shell /bin/sh -> /bin/bash');
    expect(one({ comment: 'Deployer' }).summary).to.equal('changed comment "Deploy" -> "Deployer"');
    expect(one({ password: '!' })).to.deep.include({ summary: 'changed password', action: { kind: 'modify', changes: [{ key: 'password' }] } });
    expect(one({ shell: '/bin/bash', comment: 'X' }).summary).to.equal('changed shell /bin/sh -> /bin/bash, comment "Deploy" -> "X"');
  });

  it('groups: exact sets the whole list, add joins only the missing ones', () => {
    expect(decide(desired({ groups: ['www-data'] }), existing())).to.deep.include({
      summary: 'changed groups +www-data -adm',
      action: { kind: 'modify', changes: [{ key: 'groups', to: ['www-data'], append: false }] },
    });
    expect(decide(desired({ groups: [] }), existing()).summary).to.equal('changed groups -adm');
    expect(decide(desired({ groups: ['www-data'], groupsMode: 'add' }), existing())).to.deep.include({
      summary: 'changed groups +www-data',
      action: { kind: 'modify', changes: [{ key: 'groups', to: ['www-data'], append: true }] },
    });
    expect(decide(desired({ groups: ['adm'], groupsMode: 'add' }), existing({ groups: ['adm', 'sudo'] })).changed).to.equal(false);
  });

  it('refuses a uid change or a home move while the user has processes, not other changes', () => {
    const busy = existing({ processes: [{ pid: 7, command: 'sleep' }] });
    expect(() => decide(desired({ uid: 1600 }), busy)).to.throw(/running processes \(pid 7 \(sleep\)\).*change its uid or move its home/);
    expect(() => decide(desired({ home: '/x', manageHome: true }), busy)).to.throw(/running processes/);
    expect(decide(desired({ shell: '/bin/bash' }), busy).changed).to.equal(true);
  });

  it('after applying, names what still differs, never the password', () => {
    const want = desired({ uid: 1600, groups: ['adm', 'sudo'], password: SHA512 });
    expect(mismatches(want, existing({ password: '!' }))).to.deep.equal(['uid is 1500, expected 1600', 'groups are adm, expected adm,sudo', 'the password hash is not the one given']);
    expect(mismatches(desired({ ensure: 'absent' }), existing())).to.deep.equal(['the user still exists']);
  });
});

describe('user runner description #once', () => {
  const check = (name: string, args: [string, string][]) => checkArguments('user', description, name, new Params(args)).problems.map((p) => p.message);

  it('takes crypt(3) hashes of each kind, locked or not, and the no-login markers', () => {
    const hashes = [
      SHA512,
      '!' + SHA512,
      '$6$rounds=5000$salt$' + 'b'.repeat(86),
      '$5$salt$' + 'c'.repeat(43),
      '$1$salt$' + 'd'.repeat(22),
      '$2b$10$' + 'e'.repeat(53),
      '$y$j9T$saltsaltsalt$' + 'f'.repeat(43),
      '!',
      '*',
      '!*',
    ];
    for (const hash of hashes) expect(check('deploy', [['password', hash]]), hash).to.deep.equal([]);
  });

  it('refuses a clear password, a DES hash and a hash of the wrong length, without quoting it', () => {
    for (const bad of ['hunter2', 'Tr0ub4dor&3', 'abcdefghijklm', '$6$salt$short', '$6$' + 'a'.repeat(86), '$9$salt$' + 'a'.repeat(86), '']) {
      const problems = check('deploy', [['password', bad]]);
      expect(problems, bad).to.have.length(1);
      expect(problems[0]).to.match(/^password is not a crypt\(3\) hash/);
      if (bad !== '') expect(problems[0]).not.to.include(bad);
    }
  });

  it('takes names by useradd\'s rule only, in the name and in groups', () => {
    for (const good of ['deploy', '_apt', 'www-data', 'host01$', 'a'.repeat(32)]) expect(check(good, []), good).to.deep.equal([]);
    for (const bad of ['Deploy', '1deploy', '-x', 'a b', 'a:b', 'a'.repeat(33), 'dé']) expect(check(bad, []), bad).to.have.length(1);
    expect(check('deploy', [['groups', 'adm'], ['groups', 'Bad']])).to.have.length(1);
    expect(check('deploy', [['group', '1500']])).to.deep.equal([]);
  });
});
