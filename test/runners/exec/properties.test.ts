import { expect } from 'chai';
import { Params } from '../../../src/shared/protocol.js';
import { ValidationError } from '../../../src/shared/validate.js';
import { parseProperties } from '../../../src/runners/exec/properties.js';

function props(name: string, ...args: string[]) {
  return parseProperties(name, new Params(args.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)])));
}

describe('exec properties', () => {
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
    });
  });

  it('reads every property', () => {
    const p = props('setup', 'command=make install', 'provider=shell', 'cwd=/srv', 'environment=A=1', 'environment=B=x=y',
      'path=/usr/bin:/bin', 'returns=0', 'returns=2', 'timeout=5m', 'creates=/opt/app', 'refresh_only=true',
      'logoutput=true', 'unless=test -f /a', 'onlyif=test -d /b', 'onlyif=true');
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
    });
  });

  it('reads timeouts in seconds, minutes and hours', () => {
    expect(props('x', 'timeout=30s').timeoutMs).to.equal(30_000);
    expect(props('x', 'timeout=1h').timeoutMs).to.equal(3_600_000);
    expect(props('x', 'timeout=0').timeoutMs).to.equal(0);
  });

  const refused: [string, string[], RegExp][] = [
    ['an unknown property (a typo would silently drop a guard)', ['unles=true'], /unknown property "unles"/],
    ['an environment entry without =', ['environment=FOO'], /"FOO" is not KEY=value/],
    ['an environment name with a bad character', ['environment=MY-VAR=1'], /invalid environment name "MY-VAR": character "-"/],
    ['an environment name starting with a digit', ['environment=1A=1'], /character "1"/],
    ['an empty environment name', ['environment==1'], /empty name/],
    ['the same environment name twice', ['environment=A=1', 'environment=A=2'], /sets A twice/],
    ['PATH in both path and environment', ['path=/bin', 'environment=PATH=/usr/bin'], /PATH is set both/],
    ['a relative path entry', ['path=/usr/bin:bin'], /"bin" in "\/usr\/bin:bin" is not/],
    ['an empty path entry', ['path=/usr/bin::/bin'], /an empty entry/],
    ['a relative cwd', ['cwd=srv'], /cwd must be an absolute path/],
    ['a relative creates', ['creates=app'], /creates must be an absolute path/],
    ['a returns that is not a number', ['returns=ok'], /exit codes from 0 to 255, not "ok"/],
    ['a returns out of range', ['returns=256'], /not "256"/],
    ['a negative returns', ['returns=-1'], /not "-1"/],
    ['a bad timeout', ['timeout=soon'], /timeout: invalid duration "soon"/],
    ['an unknown provider', ['provider=bash'], /provider must be one of posix, shell, not "bash"/],
    ['an unknown logoutput', ['logoutput=always'], /logoutput must be one of true, false, on_failure/],
    ['a refresh_only that is not a boolean', ['refresh_only=yes'], /refresh_only must be true or false/],
    ['an empty command', ['command= '], /the command is empty/],
    ['an empty unless', ['unless='], /unless has an empty command/],
  ];
  for (const [what, args, message] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => props('x', ...args)).to.throw(message);
    });
  }

  it('refuses with a ValidationError (a message, not a stack trace)', () => {
    expect(() => props('x', 'cwd=srv')).to.throw(ValidationError);
    expect(() => props('x', 'timeout=soon')).to.throw(ValidationError);
  });
});
