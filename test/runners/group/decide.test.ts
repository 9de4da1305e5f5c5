// The group runner's decision table, row by row.
import { expect } from 'chai';
import { decide, mismatches, type CurrentGroup, type DesiredGroup } from '../../../src/runners/group/decide.js';

const desired = (extra: Partial<DesiredGroup> = {}): DesiredGroup => ({ name: 'devs', ensure: 'present', system: false, membersMode: 'exact', ...extra });
const existing = (extra: Partial<Extract<CurrentGroup, { exists: true }>> = {}): CurrentGroup => ({ exists: true, gid: 1500, members: ['alice'], primaryOf: [], ...extra });

describe('group runner decision #once', () => {
  it('absent: nothing when missing, groupdel when present, refused when it is a user\'s primary group', () => {
    expect(decide(desired({ ensure: 'absent' }), { exists: false })).to.include({ changed: false, summary: 'group devs already absent' });
    expect(decide(desired({ ensure: 'absent' }), existing())).to.deep.include({ changed: true, action: { kind: 'remove' }, summary: 'removed group devs' });
    expect(() => decide(desired({ ensure: 'absent' }), existing({ primaryOf: ['alice', 'bob'] }))).to.throw(
      'group devs is the primary group of user alice, bob: give them another group or remove them first',
    );
  });

  it('present and missing: create', () => {
    expect(decide(desired({ gid: 1500, members: ['alice'], system: true }), { exists: false })).to.deep.include({
      action: { kind: 'create' },
      summary: 'created system group devs (gid 1500, members alice)',
    });
    expect(decide(desired(), { exists: false }).summary).to.equal('created group devs');
  });

  it('present: unchanged when gid and members match or are not managed', () => {
    expect(decide(desired({ gid: 1500, members: ['alice'] }), existing()).changed).to.equal(false);
    expect(decide(desired(), existing()).summary).to.equal('group devs up to date');
  });

  it('gid and members converge on their own; exact and add', () => {
    expect(decide(desired({ gid: 1600 }), existing())).to.deep.include({
      action: { kind: 'modify', gid: 1600 },
      summary: 'changed gid 1500 -> 1600 (files still owned by gid 1500 were not changed)',
    });
    expect(decide(desired({ members: ['bob'] }), existing())).to.deep.include({ action: { kind: 'modify', members: ['bob'] }, summary: 'changed members +bob -alice' });
    expect(decide(desired({ members: [] }), existing())).to.deep.include({ action: { kind: 'modify', members: [] }, summary: 'changed members -alice' });
    expect(decide(desired({ members: ['bob'], membersMode: 'add' }), existing())).to.deep.include({ action: { kind: 'modify', members: ['alice', 'bob'] }, summary: 'changed members +bob' });
    expect(decide(desired({ members: ['alice'], membersMode: 'add' }), existing({ members: ['alice', 'carol'] })).changed).to.equal(false);
  });

  it('after applying, names what still differs', () => {
    expect(mismatches(desired({ gid: 1600, members: ['bob'] }), existing())).to.deep.equal(['gid is 1500, expected 1600', 'members are alice, expected bob']);
    expect(mismatches(desired({ ensure: 'absent' }), { exists: false })).to.deep.equal([]);
  });
});
