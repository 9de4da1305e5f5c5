import { expect } from 'chai';
import { hiddenKey, isSensitiveFact, masker, maskText, secretsOf } from '../../src/shared/sensitive.js';

describe('sensitive values (shared/sensitive.ts) #once', () => {
  it('hides every value of a sensitive resource, template variables included, longest first', () => {
    const secrets = secretsOf({ attrs: { contents: 'hunter2 and more', mode: '0600', list: ['a1', 'b2'] }, sensitive: true, template: { vars: { key: 'k3y-value' } } });
    expect(secrets).to.deep.equal(['{"key":"k3y-value"}', 'hunter2 and more', 'k3y-value', '0600', 'a1', 'b2']);
  });

  it('hides only contents with show_diff = false', () => {
    const r = { attrs: { contents: 'hunter2', show_diff: false, owner: 'root' } };
    expect(secretsOf(r)).to.deep.equal(['hunter2']);
    expect(hiddenKey(r, 'contents')).to.equal(true);
    expect(hiddenKey(r, 'owner')).to.equal(false);
    expect(masker(r)('changed content sha256:1a2b3c4d5e6f (hunter2)')).to.equal('changed content sha256:1a2b3c4d5e6f (<sensitive>)');
  });

  it('replaces a short value only as a whole word, and hashes for a sensitive resource', () => {
    expect(maskText('mode 0600 -> 060, ran 60 and 600', ['60'])).to.equal('mode 0600 -> 060, ran <sensitive> and 600');
    expect(maskText('changed content sha256:1a2b3c4d5e6f -> sha256:abcdef012345', [], true)).to.equal('changed content sha256:<sensitive> -> sha256:<sensitive>');
    expect(masker({ attrs: { a: 'x' } })('x sha256:1a2b3c4d5e6f')).to.equal('x sha256:1a2b3c4d5e6f');
  });

  it('takes facts under secret/ as sensitive', () => {
    expect(isSensitiveFact('secret/db_password')).to.equal(true);
    expect(isSensitiveFact('secretive')).to.equal(false);
    expect(isSensitiveFact('app/secret')).to.equal(false);
  });
});
