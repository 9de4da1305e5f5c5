// Arguments checked against a description: every value type, the cross-key rules, secrets, signals.
import { expect } from 'chai';
import { checkArguments, refusedSignal } from '../../src/shared/arguments.js';
import type { RunnerDescription } from '../../src/shared/description.js';
import { Params } from '../../src/shared/protocol.js';

const description: RunnerDescription = {
  name: { type: 'string', chars: 'a-z_', what: 'a user name' },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent', 'link'], default: 'present' },
    uid: { type: 'integer', min: 0, max: 65535 },
    system: { type: 'boolean', default: false },
    mode: { type: 'mode', max: 0o777 },
    home: { type: 'path', clean: true },
    shell: { type: 'string', pattern: '/.*', what: 'an absolute path' },
    timeout: { type: 'duration', default: '30s' },
    groups: { type: 'list', items: { type: 'string', chars: 'a-z' } },
    env: { type: 'map' },
    password: { type: 'string', pattern: '\\$[0-9a-z]+\\$.*', what: 'a crypt hash', sensitive: true },
    target: { type: 'path' },
    contents: { type: 'string' },
    template: { type: 'string' },
    scope: { type: 'enum', values: ['system', 'user'], default: 'system' },
    provider: { type: 'enum', values: ['a', 'b'] },
    match: { type: 'regex' },
    vars: { type: 'map' },
  },
  rules: [
    { exclusive: ['contents', 'template'] },
    { when: { ensure: ['link'] }, require: ['target'] },
    { only_when: { ensure: ['link'] }, keys: ['target'] },
    { when: { scope: ['user'] }, values: { provider: ['a'] } },
    { requires: { vars: ['template'] } },
  ],
  signals: ['refresh', 'reload'],
};

function check(name: string, ...args: string[]) {
  return checkArguments('user', description, name, new Params(args.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)])));
}
const messages = (name: string, ...args: string[]) => check(name, ...args).problems.map((p) => (p.key ? `${p.key}: ${p.message}` : p.message));

describe('checking arguments against a description #once', () => {
  it('reads every type, and gives the defaults of the keys not given (a list: empty)', () => {
    const { values, problems } = check('alice', 'uid=1000', 'mode=0o750', 'home=/home/alice', 'shell=/bin/sh', 'groups=adm', 'groups=sudo', 'env={"A":"1"}', 'password=$6$salt$hash');
    expect(problems).to.deep.equal([]);
    expect(values).to.deep.equal({
      ensure: 'present',
      uid: 1000,
      system: false,
      mode: 0o750,
      home: '/home/alice',
      shell: '/bin/sh',
      timeout: 30_000,
      groups: ['adm', 'sudo'],
      env: { A: '1' },
      password: '$6$salt$hash',
      target: undefined,
      contents: undefined,
      template: undefined,
      scope: 'system',
      provider: undefined,
      match: undefined,
      vars: undefined,
    });
  });

  it('reports every problem at once, each with its key, a suggestion where one is close', () => {
    expect(messages('Alice', 'ensure=presnt', 'uid=70000', 'system=yes', 'mode=0888', 'home=/home//alice', 'shell=sh', 'timeout=soon', 'groups=ad m', 'env=[1]', 'hom=x', 'uid=2')).to.deep.equal([
      'name "Alice" is not a user name (character "A" is not allowed)',
      'hom: unknown key "hom" (did you mean "home"?)',
      'ensure: ensure "presnt" is not one of present, absent, link (did you mean "present"?)',
      'uid: uid is given 2 times; it takes one value',
      'system: system "yes" is not true or false',
      'mode: mode "0888" is not an octal mode (character "8" is not a digit 0-7)',
      'home: home "/home//alice" is not a clean absolute path (it must not contain "//")',
      'shell: shell "sh" is not an absolute path',
      'timeout: timeout "soon" is not a duration such as 30s, 5m, 1h30m or a number of seconds',
      'groups: groups "ad m" is not valid (character space is not allowed)',
      'env: env "[1]" is not a map',
    ]);
    expect(messages('a', 'frobnicate=1')).to.deep.equal([
      'frobnicate: unknown key "frobnicate" (user takes ensure, uid, system, mode, home, shell, timeout, groups, env, password, target, contents, template, scope, provider, match, vars)',
    ]);
  });

  it('gives each resource its own copy of a default list, and reads a wrong default as a problem each time', () => {
    const listed: RunnerDescription = { keys: { tags: { type: 'list', default: ['a', 'b'] }, size: { type: 'integer', default: 'big' } } };
    const first = checkArguments('x', listed, 'n', new Params());
    (first.values.tags as string[]).push('changed by the runner');
    const second = checkArguments('x', listed, 'n', new Params());
    expect(second.values.tags).to.deep.equal(['a', 'b']);
    expect(second.problems).to.deep.equal([{ key: 'size', message: 'size "big" is not an integer' }]);
    expect(checkArguments('x', listed, 'n', new Params([['tags', 'c']])).values.tags).to.deep.equal(['c']);
  });

  it('refuses a character outside the class anywhere in the value, a leading "-" and an empty value', () => {
    expect(messages('a', 'groups=adm', 'groups=wheel')).to.deep.equal([]);
    expect(messages('a', 'groups=-adm')).to.deep.equal(['groups: groups "-adm" is not valid (character "-" is not allowed)']);
    const dashed: RunnerDescription = { name: { type: 'string', chars: 'a-z-' } };
    expect(checkArguments('x', dashed, 'a-b', new Params()).problems).to.deep.equal([]);
    expect(checkArguments('x', dashed, '-ab', new Params()).problems).to.deep.equal([{ message: 'name "-ab" is not valid (it must not start with "-")' }]);
    expect(messages('a', 'groups=')).to.deep.equal(['groups: groups "" is not valid (it is empty)']);
    expect(messages('a', 'groups=adm;')).to.deep.equal(['groups: groups "adm;" is not valid (character ";" is not allowed)']);
    expect(messages('a\n')).to.deep.equal(['name "a\\n" is not a user name (character U+000A is not allowed)']);
  });

  it('refuses a regular expression that does not compile', () => {
    expect(messages('a', 'match=^port\\s*=')).to.deep.equal([]);
    expect(messages('a', 'match=(unclosed')).to.deep.equal(['match: match "(unclosed" is not a regular expression (Unterminated group)']);
  });

  it('refuses integers out of range, and modes above the maximum', () => {
    expect(messages('a', 'uid=-1')).to.deep.equal(['uid: uid "-1" is not an integer from 0 to 65535']);
    expect(messages('a', 'mode=4755')).to.deep.equal(['mode: mode "4755" is not an octal mode (it is above 0777: setuid, setgid and sticky bits cannot be set here)']);
  });

  it('never shows the value of a sensitive key', () => {
    const found = messages('a', 'password=hunter2');
    expect(found).to.deep.equal(['password: password is not a crypt hash']);
    expect(found.join()).to.not.contain('hunter2');
  });

  it('applies the rules: exclusive keys, keys required or allowed for some values, values allowed under a condition', () => {
    expect(messages('a', 'contents=x', 'template=y')).to.deep.equal(['template: give only one of contents and template, not both']);
    expect(messages('a', 'ensure=link')).to.deep.equal(['target is required for ensure = "link"']);
    expect(messages('a', 'target=/x')).to.deep.equal(['target: target is only for ensure = "link", not ensure = "present"']);
    expect(messages('a', 'scope=user', 'provider=b')).to.deep.equal(['provider: provider must be "a" when scope = "user", not "b"']);
    expect(messages('a', 'scope=user', 'provider=a')).to.deep.equal([]);
    expect(messages('a', 'ensure=link', 'target=/x')).to.deep.equal([]);
    expect(messages('a', 'vars={"a":"1"}')).to.deep.equal(['vars: vars needs template']);
    expect(messages('a', 'vars={"a":"1"}', 'template=t')).to.deep.equal([]);
  });

  it('does not pile a rule on a value that is already wrong', () => {
    expect(messages('a', 'ensure=lnk', 'target=/x')).to.deep.equal(['ensure: ensure "lnk" is not one of present, absent, link (did you mean "link"?)']);
  });

  it('does not pile a rule on a required key that is missing (a file without ensure: not also "mode is only for ..., not ensure = \'\'")', () => {
    const required: RunnerDescription = {
      keys: { ensure: { type: 'enum', values: ['present', 'directory'], required: true }, mode: { type: 'mode' } },
      rules: [{ only_when: { ensure: ['present', 'directory'] }, keys: ['mode'] }],
    };
    const problems = checkArguments('file', required, '/x', new Params([['mode', '0644']])).problems;
    expect(problems).to.deep.equal([{ message: 'ensure is required (present, directory)' }]);
  });

  it('passes every key unchecked when the description does not list keys', () => {
    const open = checkArguments('x', { signals: ['refresh'] }, 'n', new Params([['any', '1'], ['l', 'a'], ['l', 'b']]));
    expect(open).to.deep.equal({ values: { any: '1', l: ['a', 'b'] }, problems: [] });
  });

  it('says which signals a runner accepts, with a suggestion', () => {
    expect(refusedSignal('user', description, 'refresh')).to.equal(undefined);
    expect(refusedSignal('user', description, 'restart')).to.equal('user does not accept the signal "restart" (it accepts refresh, reload)');
    expect(refusedSignal('user', description, 'relaod')).to.equal('user does not accept the signal "relaod" (did you mean "reload"? it accepts refresh, reload)');
    expect(refusedSignal('x', { signals: [] }, 'refresh')).to.equal('x does not accept the signal "refresh" (it accepts no signal)');
    expect(refusedSignal('x', {}, 'anything'), 'a runner that does not list its signals').to.equal(undefined);
    expect(refusedSignal('x', undefined, 'anything'), 'a runner that does not describe itself').to.equal(undefined);
  });
});
