// FreeBSD's version comparison (`pkg version -t`), against the examples FreeBSD documents: the
// Porter's Handbook's (its section on comparing versions with pkg-version), those in the rules pkg
// gives for its comparison, and pkg's own test of `pkg version -t`. No FreeBSD pkg runs here, so
// there is no differential test against the real program.
import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { compareVersions } from '../../../src/shared/version/index.js';
import { checkFreebsdVersion, compareFreebsd, compareFreebsdToWanted, splitFreebsdVersion } from '../../../src/shared/version/freebsd.js';

type Vector = [string, '<' | '=' | '>', string];

/** The Porter's Handbook's examples of `pkg version -t`. */
const HANDBOOK: Vector[] = [
  ['1.2', '<', '1.3'],
  ['1.2', '=', '1.2'],
  ['1.2', '=', '1.2.0'],
  ['1.2', '>', '1.2.p1'],
  ['1.2.a1', '<', '1.2.b1'],
  ['1.2', '<', '1.2p1'],
  // Why a port needs PORTEPOCH: 0.10 is newer than 0.9, until the epoch says otherwise.
  ['0.9', '<', '0.10'],
  ['0.10', '<', '0.9,1'],
];

/** The examples in the rules pkg states for its comparison. */
const RULES: Vector[] = [
  ['1.0:2003.09.16', '=', '1.0.2003.09.16'],
  ['1.0.1:2003.09.16', '<', '1.0:2003.09.16'],
  ['10..1', '=', '10.1'],
  ['10a1b2', '=', '10a1.b2'],
  ['10', '=', '10.0'],
  ['10', '=', '10.0.0'],
  ['10', '<', '10a'],
  ['10a', '<', '10b'],
  ['a', '<', '0'],
  ['10.a', '<', '10'],
  ['10alpha', '=', '10.a'],
  ['10alpha', '<', '10'],
  ['10', '<', '10a'],
  ['pl11', '<', 'alpha3'],
  ['alpha3', '<', '0.1beta2'],
  ['0.1beta2', '=', '0.1.b2'],
  ['0.1.b2', '<', '0.1'],
  ['1.d2', '=', '1.dev2'],
  ['1.dev2', '=', '1.Development2'],
  ['2.*', '<', '2pl1'],
  ['2pl1', '<', '2alpha3'],
  ['2alpha3', '<', '2.9f7'],
  ['2.9f7', '<', '3.*'],
];

/** pkg's own test of `pkg version -t`, and the order of the three parts: epoch, port version, revision. */
const PARTS: Vector[] = [
  ['1', '<', '2'],
  ['2', '>', '1'],
  ['2', '=', '2'],
  ['2', '<', '1,1'],
  ['1.0_1', '>', '1.0'],
  ['1.0_2', '<', '1.0_10'],
  ['1.1', '>', '1.0_9'],
  ['1.0,1', '>', '2.0_5'],
  ['1.0_1,1', '=', '1.0_1,1'],
  ['3.0.13_1,1', '<', '3.0.14,1'],
];

const symbol = { '<': -1, '=': 0, '>': 1 } as const;

describe('freebsd version scheme (pkg version -t, from its documented rules and examples) #once', () => {
  for (const [name, table] of [['the Porter\'s Handbook', HANDBOOK], ['pkg\'s stated rules', RULES], ['epoch, version, revision', PARTS]] as const) {
    it(`compares ${name}'s examples both ways`, () => {
      const wrong = table
        .flatMap(([a, op, b]) => [
          { a, b, want: symbol[op], got: compareFreebsd(a, b) },
          { a: b, b: a, want: -symbol[op] || 0, got: compareFreebsd(b, a) },
        ])
        .filter((v) => v.got !== v.want);
      expect(wrong).to.deep.equal([]);
    });
  }

  it('govern versioncmp\'s scheme checks both versions first', () => {
    expect(compareVersions('freebsd', '3.0.13_1,1', '3.0.14,1')).to.equal(-1);
    expect(() => compareVersions('freebsd', '1.0:2003', '1.0')).to.throw(UserError, 'may hold only letters, digits');
  });

  it('splits V_R,E at the last "_" and the last "," after it', () => {
    expect(splitFreebsdVersion('3.0.13_1,1')).to.deep.equal({ version: '3.0.13', revision: '1', epoch: '1' });
    expect(splitFreebsdVersion('0.9,1')).to.deep.equal({ version: '0.9', epoch: '1' });
    expect(splitFreebsdVersion('5.36.3_1')).to.deep.equal({ version: '5.36.3', revision: '1' });
  });

  it('matches a wanted version on the parts it gives', () => {
    expect(compareFreebsdToWanted('1.2_3,1', '1.2')).to.equal(0);
    expect(compareFreebsdToWanted('1.2_3,1', '1.2_3')).to.equal(0);
    expect(compareFreebsdToWanted('1.2_3,1', '1.2_4')).to.equal(-1);
    expect(compareFreebsdToWanted('1.2_3', '1.2,1')).to.equal(-1);
    expect(compareFreebsdToWanted('1.3', '1.2')).to.equal(1);
  });

  it('refuses what the ports cannot make, naming the part', () => {
    expect(() => checkFreebsdVersion('1.0_x')).to.throw(UserError, 'the revision after "_" must be a number, not "x"');
    expect(() => checkFreebsdVersion('1.0,a')).to.throw(UserError, 'the epoch after "," must be a number');
    expect(() => checkFreebsdVersion('_1')).to.throw(UserError, 'the port version is empty');
    expect(() => checkFreebsdVersion('1-0')).to.throw(UserError, 'may hold only letters, digits');
    expect(() => compareVersions('freebsd', '1.0', '1.0_x')).to.throw(UserError);
  });
});
