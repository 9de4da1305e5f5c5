import { expect } from 'chai';
import { checkChars, checkResourceName, PACKAGE_NAME_CHARS, VERSION_CHARS, type CharRule } from '../../src/shared/validate.js';

const PACKAGE_NAME: CharRule = { what: 'package name', char: new RegExp(`[${PACKAGE_NAME_CHARS}]`), allowed: 'letters, digits and . _ + : ~ -' };
const PACKAGE_VERSION: CharRule = { what: 'version', char: new RegExp(`[${VERSION_CHARS}]`), allowed: 'letters, digits and . _ + : ~ ^ -' };

describe('validation patterns #once', () => {
  it('accepts the seeds\' package name characters', () => {
    for (const ok of ['nginx', 'libc6:amd64', 'g++', 'python3.11', 'foo_bar~1', 'a-b']) expect(checkChars(PACKAGE_NAME, ok)).to.equal(ok);
  });

  it('names the bad character', () => {
    expect(() => checkChars(PACKAGE_NAME, 'vim;rm')).to.throw(/character ";" is not allowed/);
    expect(() => checkChars(PACKAGE_NAME, 'a b')).to.throw(/character space is not allowed/);
    expect(() => checkChars(PACKAGE_NAME, 'a/b')).to.throw(/character "\/"/);
    expect(() => checkChars(PACKAGE_NAME, '$(x)')).to.throw(/character "\$"/);
    expect(() => checkChars(PACKAGE_NAME, 'a\nb')).to.throw(/U\+000A/);
    expect(() => checkChars(PACKAGE_NAME, '-rf')).to.throw(/must not start with "-"/);
    expect(() => checkChars(PACKAGE_VERSION, '1.0`id`')).to.throw(/character "`"/);
    expect(() => checkChars(PACKAGE_NAME, '')).to.throw(/empty/);
  });

  it('checks resource names for control characters and leading dashes only', () => {
    expect(checkResourceName('/etc/fstab old')).to.equal(undefined);
    expect(checkResourceName('-x')).to.match(/must not start/);
    expect(checkResourceName('a\tb')).to.match(/control character U\+0009/);
    expect(checkResourceName('')).to.match(/empty/);
  });
});
