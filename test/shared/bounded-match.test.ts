// Patterns matched whole, by whichever engine bounded-match.ts picks: the same answers as JavaScript's
// own RegExp with the `u` flag gives, and a pattern that backtracks without end still ends.
import { expect } from 'chai';
import { matchesWhole } from '../../src/shared/bounded-match.js';

describe('bounded-match #once', () => {
  it('matches a one-quantifier pattern as the u-flag RegExp does, astral characters as one', () => {
    // Answered by JavaScript's own engine: `.` is one code point, where the linear engine (no `u`) sees two halves.
    expect(matchesWhole('.', '\u{1F600}')).to.equal(true);
    expect(matchesWhole('/.+', '/etc/x')).to.equal(true);
    expect(matchesWhole('/.+', 'etc/x')).to.equal(false);
    expect(matchesWhole('[0-7]{3,4}', '0644')).to.equal(true);
    expect(matchesWhole('[0-7]{3,4}', '06448')).to.equal(false);
    expect(matchesWhole('\\S.*', 'a b\nc')).to.equal(true);
    expect(matchesWhole('a+?b', 'aaab')).to.equal(true);
    expect(matchesWhole('[a-z]+', 'Abc', 'iu')).to.equal(true);
  });

  it('answers patterns with groups, alternation, backreferences and two quantifiers as RegExp does', () => {
    const cases: [string, string][] = [
      ['(a|b)+c', 'ababc'],
      ['(a|b)+c', 'abab'],
      ['(x)\\1', 'xx'],
      ['(x)\\1', 'xy'],
      ['.*\\S.*', '   '],
      ['.*\\S.*', ' a '],
      ['a*a*b', 'aab'],
      ['[|(]+', '|(|'],
    ];
    for (const [pattern, text] of cases) expect(matchesWhole(pattern, text), `${pattern} on ${text}`).to.equal(new RegExp(`^(?:${pattern})$`, 'su').test(text));
  });

  it('still ends on a pattern that backtracks exponentially in JavaScript’s engine', () => {
    expect(matchesWhole('(a|aa)+', `${'a'.repeat(60)}b`)).to.equal(false);
    expect(matchesWhole('(a+)+\\1', `${'a'.repeat(30)}b`)).to.equal(undefined);
  });
});
