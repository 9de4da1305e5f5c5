import { expect } from 'chai';
import { Params } from '../../../src/shared/protocol.js';
import { ValidationError } from '../../../src/shared/validate.js';
import { checkPath, formatMode, parseAccount, parseMode, parseProperties } from '../../../src/runners/file/properties.js';

const attrs: [string, string][] = [['owner', 'root'], ['group', 'root'], ['mode', '0644']];
const params = (...pairs: [string, string][]) => new Params(pairs);

describe('file properties', () => {
  describe('mode', () => {
    for (const [text, value] of [['0644', 0o644], ['644', 0o644], ['0o755', 0o755], ['0O700', 0o700], ['0', 0], ['0777', 0o777], ['0000', 0], ['600', 0o600]] as const) {
      it(`accepts ${text}`, () => expect(parseMode(text)).to.equal(value));
    }

    const invalid: [string, RegExp][] = [
      ['0888', /not octal: character "8"/],
      ['1777', /above 0777: setuid, setgid and sticky/],
      ['rwx', /not octal: character "r"/],
      ['0o1755', /above 0777/],
      ['', /mode is empty/],
      ['0o', /no digits/],
      ['0x1ff', /not octal: character "x"/],
      ['-644', /not octal: character "-"/],
      [' 644', /not octal: character space/],
      ['6 44', /character space/],
      ['4755', /above 0777/],
      ['u+rw', /not octal/],
    ];
    for (const [text, message] of invalid) {
      it(`refuses ${JSON.stringify(text)}`, () => {
        expect(() => parseMode(text)).to.throw(ValidationError, message);
      });
    }

    it('formats modes with four digits', () => {
      expect(formatMode(0o644)).to.equal('0644');
      expect(formatMode(0o7)).to.equal('0007');
    });
  });

  describe('path', () => {
    it('accepts absolute clean paths', () => {
      for (const p of ['/etc/motd', '/a', '/a/b c/d', '/a/.hidden', '/a/..b', '/a/b.']) expect(checkPath(p)).to.equal(p);
    });

    const invalid: [string, RegExp][] = [
      ['a/b', /must be absolute/],
      ['motd', /must be absolute/],
      ['./a', /must be absolute/],
      ['', /path is empty/],
      ['/a/../b', /must be clean: it contains a "\.\." component/],
      ['/a/./b', /must be clean: it contains a "\." component/],
      ['/a/..', /"\.\." component/],
      ['/.', /"\." component/],
      ['/a/', /must not end with "\/"/],
      ['//a', /must not contain "\/\/"/],
      ['/a//b', /must not contain "\/\/"/],
      ['/', /root directory/],
    ];
    for (const [p, message] of invalid) {
      it(`refuses ${JSON.stringify(p)}`, () => {
        expect(() => checkPath(p)).to.throw(ValidationError, message);
        expect(() => parseProperties(p, params(['ensure', 'present'], ...attrs), undefined)).to.throw(ValidationError, message);
      });
    }
  });

  describe('owner and group', () => {
    it('takes a name or a numeric id', () => {
      expect(parseAccount('owner', 'www-data')).to.deep.equal({ kind: 'name', name: 'www-data' });
      expect(parseAccount('owner', 'host$')).to.deep.equal({ kind: 'name', name: 'host$' });
      expect(parseAccount('group', '0')).to.deep.equal({ kind: 'id', id: 0 });
      expect(parseAccount('group', '4294967294')).to.deep.equal({ kind: 'id', id: 4294967294 });
    });

    it('refuses names that are not names, and ids out of range', () => {
      expect(() => parseAccount('owner', 'ro ot')).to.throw(ValidationError, /owner name "ro ot": character space/);
      expect(() => parseAccount('owner', 'a:b')).to.throw(ValidationError, /character ":"/);
      expect(() => parseAccount('group', '-root')).to.throw(ValidationError, /must not start with "-"/);
      expect(() => parseAccount('owner', '')).to.throw(ValidationError, /owner is empty/);
      // 2^32-1 means "leave unchanged" to chown
      expect(() => parseAccount('owner', '4294967295')).to.throw(ValidationError, /out of range/);
    });
  });

  describe('the whole request', () => {
    it('reads a present file with inline contents', () => {
      const props = parseProperties('/etc/motd', params(['ensure', 'present'], ['contents', 'hi\n'], ...attrs), undefined);
      expect(props).to.deep.equal({
        path: '/etc/motd',
        ensure: 'present',
        contents: 'hi\n',
        owner: { kind: 'name', name: 'root' },
        group: { kind: 'name', name: 'root' },
        mode: 0o644,
        force: false,
        showDiff: true,
      });
    });

    it('keeps empty contents as content (an empty file), distinct from no contents', () => {
      expect(parseProperties('/x', params(['ensure', 'present'], ['contents', ''], ...attrs), undefined).contents).to.equal('');
      expect(parseProperties('/x', params(['ensure', 'present'], ...attrs), undefined)).to.not.have.property('contents');
    });

    it('resolves a relative source against GOVERN_STATE_DIR and keeps an absolute one', () => {
      expect(parseProperties('/x', params(['ensure', 'present'], ['source', 'files/motd'], ...attrs), '/srv/state').source).to.equal('/srv/state/files/motd');
      expect(parseProperties('/x', params(['ensure', 'present'], ['source', '../motd'], ...attrs), '/srv/state').source).to.equal('/srv/motd');
      expect(parseProperties('/x', params(['ensure', 'present'], ['source', '/etc/motd'], ...attrs), '/srv/state').source).to.equal('/etc/motd');
    });

    it('refuses a relative source without GOVERN_STATE_DIR', () => {
      expect(() => parseProperties('/x', params(['ensure', 'present'], ['source', 'motd'], ...attrs), undefined)).to.throw(ValidationError, /relative and GOVERN_STATE_DIR is not set/);
    });

    it('refuses contents and source together', () => {
      expect(() => parseProperties('/x', params(['ensure', 'present'], ['contents', 'a'], ['source', '/b'], ...attrs), undefined)).to.throw(ValidationError, /mutually exclusive/);
    });

    it('refuses content for a directory or an absent path', () => {
      expect(() => parseProperties('/x', params(['ensure', 'directory'], ['contents', 'a'], ...attrs), undefined)).to.throw(ValidationError, /contents is only for ensure = present/);
      expect(() => parseProperties('/x', params(['ensure', 'absent'], ['source', '/a'], ...attrs), undefined)).to.throw(ValidationError, /source is only for ensure = present/);
    });

    it('requires ensure, and one of its three values', () => {
      expect(() => parseProperties('/x', params(...attrs), undefined)).to.throw(ValidationError, /ensure is required/);
      expect(() => parseProperties('/x', params(['ensure', 'file'], ...attrs), undefined)).to.throw(ValidationError, /ensure must be one of present, absent, directory, not "file"/);
    });

    it('requires owner, group and mode for present and directory, not for absent', () => {
      expect(() => parseProperties('/x', params(['ensure', 'present']), undefined)).to.throw(ValidationError, /owner, group, mode are required for ensure = present/);
      expect(() => parseProperties('/x', params(['ensure', 'directory'], ['owner', 'root'], ['group', 'root']), undefined)).to.throw(ValidationError, /mode is required for ensure = directory/);
      expect(parseProperties('/x', params(['ensure', 'absent']), undefined)).to.deep.equal({ path: '/x', ensure: 'absent', force: false, showDiff: true });
    });

    it('reads force and show_diff as booleans', () => {
      const props = parseProperties('/x', params(['ensure', 'absent'], ['force', 'true'], ['show_diff', 'false']), undefined);
      expect(props.force).to.equal(true);
      expect(props.showDiff).to.equal(false);
      expect(() => parseProperties('/x', params(['ensure', 'absent'], ['force', 'yes']), undefined)).to.throw(/force must be true or false/);
    });

    it('refuses an unknown argument (a typo would otherwise be ignored)', () => {
      expect(() => parseProperties('/x', params(['ensure', 'present'], ['onwer', 'root'], ...attrs), undefined)).to.throw(ValidationError, /unknown argument onwer/);
    });
  });
});
