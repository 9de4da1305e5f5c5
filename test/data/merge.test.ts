import { expect } from 'chai';
import { mergeValues, unmergeable } from '../../src/data/merge.js';

describe('data merge strategies #once', () => {
  it('first: the most specific value', () => {
    expect(mergeValues('first', [['a'], ['b']])).to.deep.equal(['a']);
  });

  it('unique: lists joined in level order, each element once, a scalar as a one-element list', () => {
    expect(mergeValues('unique', [['c', 'a'], ['a', 'b'], 'd', [{ x: 1 }], [{ x: 1 }]])).to.deep.equal(['c', 'a', 'b', 'd', { x: 1 }]);
  });

  it('deep: maps merged key by key, the more specific level winning', () => {
    const host = { alice: { shell: '/bin/zsh' }, bob: { uid: 1001 } };
    const common = { alice: { uid: 1000, shell: '/bin/bash', groups: ['adm'] }, carol: { uid: 1002 } };
    expect(mergeValues('deep', [host, common])).to.deep.equal({
      alice: { uid: 1000, shell: '/bin/zsh', groups: ['adm'] },
      carol: { uid: 1002 },
      bob: { uid: 1001 },
    });
  });

  it('deep: a key named __proto__ stays a plain key', () => {
    const merged = mergeValues('deep', [JSON.parse('{"__proto__": {"polluted": 1}}'), { a: 1 }]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).to.equal(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('deep refuses a value that is not a map', () => {
    expect(unmergeable('deep', ['a'])).to.contain('merge "deep" joins maps, and this value is a list');
    expect(unmergeable('deep', { a: 1 })).to.equal(undefined);
  });
});
