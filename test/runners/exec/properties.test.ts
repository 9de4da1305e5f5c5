import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import { parseRequest } from '../../../src/runners/kit/index.js';
import { execProperties } from '../../../src/runners/exec/properties.js';
import { execRunner } from '../../../src/runners/exec/runner.js';

/** The arguments as the runner reads them: checked against the description, then its own checks. */
function props(name: string, ...args: string[]) {
  return execProperties(parseRequest(execRunner, [name, ...args], {}, () => undefined));
}

describe('exec properties #once', () => {
  it('has the documented defaults, and the command defaults to the name', () => {
    expect(props('/bin/true')).to.deep.equal({
      command: '/bin/true',
      provider: 'posix',
      cwd: undefined,
      environment: [],
      path: undefined,
      returns: [0],
      timeoutMs: 300_000,
      creates: undefined,
      refreshOnly: false,
      logoutput: 'on_failure',
      unless: [],
      onlyif: [],
      user: undefined,
      group: undefined,
      umask: undefined,
      tries: 1,
      trySleepMs: 0,
    });
  });

  it('reads every property', () => {
    const p = props('setup', 'command=make install', 'provider=shell', 'cwd=/srv', 'environment=A=1', 'environment=B=x=y',
      'path=/usr/bin:/bin', 'returns=0', 'returns=2', 'timeout=5m', 'creates=/opt/app', 'refresh_only=true',
      'logoutput=true', 'unless=test -f /a', 'onlyif=test -d /b', 'onlyif=true', 'user=app', 'group=adm', 'umask=027', 'tries=3', 'try_sleep=2s');
    expect(p).to.deep.equal({
      command: 'make install',
      provider: 'shell',
      cwd: '/srv',
      environment: [['A', '1'], ['B', 'x=y']],
      path: ['/usr/bin', '/bin'],
      returns: [0, 2],
      timeoutMs: 300_000,
      creates: '/opt/app',
      refreshOnly: true,
      logoutput: 'true',
      unless: ['test -f /a'],
      onlyif: ['test -d /b', 'true'],
      user: 'app',
      group: 'adm',
      umask: 0o27,
      tries: 3,
      trySleepMs: 2000,
    });
  });

  it('reads timeouts in seconds, minutes and hours', () => {
    expect(props('x', 'timeout=30s').timeoutMs).to.equal(30_000);
    expect(props('x', 'timeout=1h').timeoutMs).to.equal(3_600_000);
    expect(props('x', 'timeout=0').timeoutMs).to.equal(0);
  });

  const refused: [string, string[], RegExp][] = [
    ['an unknown key (a typo would silently drop a guard)', ['unles=true'], /unknown key "unles" \(did you mean "unless"\?\)/],
    ['refreshonly for refresh_only', ['refreshonly=true'], /unknown key "refreshonly" \(did you mean "refresh_only"\?\)/],
    ['an environment entry without =', ['environment=FOO'], /environment "FOO" is not KEY=value/],
    ['an environment name with a bad character', ['environment=MY-VAR=1'], /environment "MY-VAR=1" is not KEY=value/],
    ['an environment name starting with a digit', ['environment=1A=1'], /environment "1A=1" is not KEY=value/],
    ['an empty environment name', ['environment==1'], /environment "=1" is not KEY=value/],
    ['the same environment name twice', ['environment=A=1', 'environment=A=2'], /sets A twice/],
    ['PATH in both path and environment', ['path=/bin', 'environment=PATH=/usr/bin'], /PATH is set both/],
    ['a relative path entry', ['path=/usr/bin:bin'], /path "\/usr\/bin:bin" is not absolute directories separated by ":"/],
    ['an empty path entry', ['path=/usr/bin::/bin'], /no relative or empty entry/],
    ['a relative cwd', ['cwd=srv'], /cwd "srv" is not an absolute path \(it must start with "\/"\)/],
    ['a relative creates', ['creates=app'], /creates "app" is not an absolute path/],
    ['a returns that is not a number', ['returns=ok'], /returns "ok" is not an integer from 0 to 255/],
    ['a returns out of range', ['returns=256'], /returns "256" is not an integer from 0 to 255/],
    ['a negative returns', ['returns=-1'], /returns "-1" is not/],
    ['a bad timeout', ['timeout=soon'], /timeout "soon" is not a duration such as 30s/],
    ['an unknown provider', ['provider=bash'], /provider "bash" is not one of posix, shell/],
    ['an unknown logoutput', ['logoutput=always'], /logoutput "always" is not one of true, false, on_failure/],
    ['a refresh_only that is not a boolean', ['refresh_only=yes'], /refresh_only "yes" is not true or false/],
    ['a blank command', ['command= '], /command " " is not a non-blank command/],
    ['an empty unless', ['unless='], /unless "" is not a non-blank command/],
    ['a key given twice that takes one value', ['cwd=/a', 'cwd=/b'], /cwd is given 2 times; it takes one value/],
  ];
  for (const [what, args, message] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => props('x', ...args)).to.throw(message);
    });
  }

  it('refuses with a UserError (a message, not a stack trace) naming every problem at once', () => {
    expect(() => props('x', 'cwd=srv')).to.throw(UserError);
    expect(() => props(' ')).to.throw(UserError, /the command is empty/);
    let error: UserError | undefined;
    try {
      props('x', 'cwd=srv', 'timeout=soon', 'onwer=root');
    } catch (e) {
      error = e as UserError;
    }
    expect(error?.problems.map((p) => p.message)).to.deep.equal([
      'unknown key "onwer" (exec takes command, provider, cwd, environment, path, returns, timeout, creates, refresh_only, logoutput, user, group, umask, tries, try_sleep, unless, onlyif)',
      'cwd "srv" is not an absolute path (it must start with "/")',
      'timeout "soon" is not a duration such as 30s, 5m, 1h30m or a number of seconds',
    ]);
  });
});
