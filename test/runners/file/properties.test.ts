// The file runner's arguments as it reads them: checked against its description, then its own checks.
import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { formatMode } from '../../../src/shared/values.js';
import { parseRequest } from '../../../src/runners/kit/index.js';
import { fileProperties, parseAccount } from '../../../src/runners/file/properties.js';
import { fileRunner } from '../../../src/runners/file/runner.js';

const attrs: [string, string][] = [['owner', 'root'], ['group', 'root'], ['mode', '0644']];

function props(name: string, pairs: [string, string][], stateDir?: string) {
  const env = stateDir === undefined ? {} : { GOVERN_STATE_DIR: stateDir };
  return fileProperties(parseRequest(fileRunner(), [name, ...pairs.map(([k, v]) => `${k}=${v}`)], env, () => undefined));
}

describe('file properties #once', () => {
  describe('mode', () => {
    for (const [text, value] of [['0644', 0o644], ['644', 0o644], ['0o755', 0o755], ['0O700', 0o700], ['0', 0], ['0777', 0o777], ['0000', 0], ['600', 0o600]] as const) {
      it(`accepts ${text}`, () => expect(props('/x', [['ensure', 'directory'], ['owner', 'root'], ['group', 'root'], ['mode', text]]).mode).to.equal(value));
    }

    const invalid: [string, RegExp][] = [
      ['0888', /^mode "0888" is not an octal mode \(character "8" is not a digit 0-7\)$/],
      ['1777', /above 0777: setuid, setgid and sticky/],
      ['rwx', /not an octal mode \(character "r"/],
      ['0o1755', /above 0777/],
      ['', /mode "" is not an octal mode \(it has no digits\)/],
      ['0o', /no digits/],
      ['0x1ff', /character "x"/],
      ['-644', /character "-"/],
      [' 644', /character " "/],
      ['4755', /above 0777/],
      ['u+rw', /not an octal mode/],
    ];
    for (const [text, message] of invalid) {
      it(`refuses ${JSON.stringify(text)}`, () => {
        expect(() => props('/x', [['ensure', 'directory'], ['owner', 'root'], ['group', 'root'], ['mode', text]])).to.throw(UserError, message);
      });
    }

    it('formats modes with four digits', () => {
      expect(formatMode(0o644)).to.equal('0644');
      expect(formatMode(0o7)).to.equal('0007');
    });
  });

  describe('path', () => {
    it('accepts absolute clean paths', () => {
      for (const p of ['/etc/motd', '/a', '/a/b c/d', '/a/.hidden', '/a/..b', '/a/b.']) expect(props(p, [['ensure', 'absent']]).path).to.equal(p);
    });

    const invalid: [string, RegExp][] = [
      ['a/b', /must start with "\/"/],
      ['motd', /must start with "\/"/],
      ['./a', /must start with "\/"/],
      ['/a/../b', /it contains a "\.\." component/],
      ['/a/./b', /it contains a "\." component/],
      ['/a/..', /"\.\." component/],
      ['/.', /"\." component/],
      ['/a/', /must not end with "\/"/],
      ['//a', /must not contain "\/\/"/],
      ['/a//b', /must not contain "\/\/"/],
      ['/', /^name "\/" is not a clean absolute path other than "\/"/],
    ];
    for (const [p, message] of invalid) {
      it(`refuses ${JSON.stringify(p)}`, () => {
        expect(() => props(p, [['ensure', 'present'], ...attrs])).to.throw(UserError, message);
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
      const owner = (text: string) => () => props('/x', [['ensure', 'absent'], ['owner', text]]);
      expect(owner('ro ot')).to.throw(UserError, /owner "ro ot" is not a name or a numeric id .*\(character space is not allowed\)/);
      expect(owner('a:b')).to.throw(UserError, /character ":"/);
      expect(owner('-root')).to.throw(UserError, /must not start with "-"/);
      expect(owner('')).to.throw(UserError, /owner "" is not a name or a numeric id .*\(it is empty\)/);
      // 2^32-1 means "leave unchanged" to chown
      expect(() => parseAccount('owner', '4294967295')).to.throw(UserError, /out of range/);
    });
  });

  describe('the whole request', () => {
    it('reads a present file with inline contents', () => {
      expect(props('/etc/motd', [['ensure', 'present'], ['contents', 'hi\n'], ...attrs])).to.deep.equal({
        path: '/etc/motd',
        ensure: 'present',
        contents: 'hi\n',
        source: undefined,
        owner: { kind: 'name', name: 'root' },
        group: { kind: 'name', name: 'root' },
        mode: 0o644,
        target: undefined,
        force: false,
        showDiff: true,
        validate: undefined,
        backup: false,
        purge: false,
        recurse: false,
      });
    });

    it('keeps empty contents as content (an empty file), distinct from no contents', () => {
      expect(props('/x', [['ensure', 'present'], ['contents', ''], ...attrs]).contents).to.equal('');
      expect(props('/x', [['ensure', 'present'], ...attrs]).contents).to.equal(undefined);
    });

    it('resolves a relative source against GOVERN_STATE_DIR and keeps an absolute one', () => {
      expect(props('/x', [['ensure', 'present'], ['source', 'files/motd'], ...attrs], '/srv/state').source).to.equal('/srv/state/files/motd');
      expect(props('/x', [['ensure', 'present'], ['source', '../motd'], ...attrs], '/srv/state').source).to.equal('/srv/motd');
      expect(props('/x', [['ensure', 'present'], ['source', '/etc/motd'], ...attrs], '/srv/state').source).to.equal('/etc/motd');
    });

    it('refuses a relative source without GOVERN_STATE_DIR, and an empty one', () => {
      expect(() => props('/x', [['ensure', 'present'], ['source', 'motd'], ...attrs])).to.throw(UserError, /relative and GOVERN_STATE_DIR is not set/);
      expect(() => props('/x', [['ensure', 'present'], ['source', ''], ...attrs])).to.throw(UserError, /source "" is not a non-empty path/);
    });

    it('refuses contents and source together', () => {
      expect(() => props('/x', [['ensure', 'present'], ['contents', 'a'], ['source', '/b'], ...attrs])).to.throw(UserError, /give only one of contents and source, not both/);
    });

    it('refuses content for a directory or an absent path', () => {
      expect(() => props('/x', [['ensure', 'directory'], ['contents', 'a'], ...attrs])).to.throw(UserError, /contents is only for ensure = "present", not ensure = "directory"/);
      expect(() => props('/x', [['ensure', 'absent'], ['source', '/a']])).to.throw(UserError, /source is only for ensure = "present" or "directory", not ensure = "absent"/);
      expect(() => props('/x', [['ensure', 'directory'], ['source', '/a'], ...attrs])).to.throw(UserError, /source with ensure = "directory" copies a directory tree only with recurse = true/);
    });

    it('takes recurse only for a directory, and only with a source', () => {
      expect(props('/x', [['ensure', 'directory'], ['source', '/a'], ['recurse', 'true'], ...attrs]).recurse).to.equal(true);
      expect(() => props('/x', [['ensure', 'directory'], ['recurse', 'true'], ...attrs])).to.throw(UserError, /source is required for recurse = "true"/);
      expect(() => props('/x', [['ensure', 'present'], ['source', '/a'], ['recurse', 'true'], ...attrs])).to.throw(UserError, /recurse is only for ensure = "directory"/);
    });

    it('requires ensure, and one of its values', () => {
      expect(() => props('/x', attrs)).to.throw(UserError, /ensure is required \(present, absent, directory, link\)/);
      expect(() => props('/x', [['ensure', 'file'], ...attrs])).to.throw(UserError, /ensure "file" is not one of present, absent, directory/);
      expect(() => props('/x', [['ensure', 'presnt'], ...attrs])).to.throw(UserError, /\(did you mean "present"\?\)/);
    });

    it('requires owner, group and mode for present and directory, not for absent', () => {
      expect(() => props('/x', [['ensure', 'present']])).to.throw(UserError, /owner, group and mode are required for ensure = "present"/);
      expect(() => props('/x', [['ensure', 'directory'], ['owner', 'root'], ['group', 'root']])).to.throw(UserError, /mode is required for ensure = "directory"/);
      expect(props('/x', [['ensure', 'absent']])).to.deep.include({ path: '/x', ensure: 'absent', force: false, showDiff: true, owner: undefined });
    });

    it('reads force and show_diff as booleans', () => {
      const read = props('/x', [['ensure', 'absent'], ['force', 'true'], ['show_diff', 'false']]);
      expect(read.force).to.equal(true);
      expect(read.showDiff).to.equal(false);
      expect(() => props('/x', [['ensure', 'absent'], ['force', 'yes']])).to.throw(/force "yes" is not true or false/);
    });

    it('refuses an unknown key, with the key it is close to (a typo would otherwise be ignored)', () => {
      expect(() => props('/x', [['ensure', 'present'], ['onwer', 'root'], ...attrs])).to.throw(UserError, /unknown key "onwer" \(did you mean "owner"\?\)/);
    });
  });
});
