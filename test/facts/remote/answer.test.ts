import { expect } from 'chai';
import { readAnswer } from '../../../src/facts/remote/answer.js';
import type { RunResult } from '../../../src/shared/process.js';

function result(over: Partial<RunResult>): RunResult {
  return { code: 0, signal: null, stdout: '', stderr: '', timedOut: false, overflowed: false, durationMs: 5, ...over };
}

describe('reading a host\'s answer #once', () => {
  it('takes the values of the facts asked for from a JSON object of strings', () => {
    const answer = readAnswer(result({ stdout: '{\n  "os/name": "Linux",\n  "x": "a\\nb \\"q\\""\n}\n' }), ['x', 'os/name'], 60_000);
    expect(answer).to.deep.equal({ reached: true, values: new Map([['x', 'a\nb "q"'], ['os/name', 'Linux']]), failed: new Map(), warnings: [] });
  });

  it('reports a fact the host does not have with the remote reason, and keeps the others', () => {
    const answer = readAnswer(
      result({ code: 1, stdout: '{"a": "1"}', stderr: 'govern: fact nope: no such fact (looked in /x)\ngovern: fact b: exit 3: broken\n' }),
      ['a', 'nope', 'b'],
      60_000,
    );
    expect(answer).to.deep.equal({
      reached: true,
      values: new Map([['a', '1']]),
      failed: new Map([['nope', 'no such fact (looked in /x)'], ['b', 'exit 3: broken']]),
      warnings: [],
    });
    const silent = readAnswer(result({ stdout: '{}' }), ['gone'], 60_000);
    expect(silent).to.deep.include({ failed: new Map([['gone', 'not in the answer']]) });
  });

  it('with no names asked, takes every fact and keeps the remote complaints as warnings', () => {
    const answer = readAnswer(result({ code: 1, stdout: '{"b": "2", "a": "1"}', stderr: 'govern: fact c: timed out after 10s and was killed\n' }), 'all', 60_000);
    expect(answer).to.deep.equal({ reached: true, values: new Map([['b', '2'], ['a', '1']]), failed: new Map(), warnings: ['fact c: timed out after 10s and was killed'] });
  });

  it('ignores what ssh says on stderr when the command succeeded', () => {
    const answer = readAnswer(result({ stdout: '{"a": "1"}', stderr: "Warning: Permanently added 'x' to the list of known hosts.\n" }), 'all', 60_000);
    expect(answer).to.deep.include({ warnings: [] });
  });

  const failures: [string, Partial<RunResult>, RegExp][] = [
    ['ssh\'s own failure (exit 255)', { code: 255, stderr: 'ssh: connect to host 10.0.0.9 port 22: Connection refused\n' }, /^ssh exit 255: ssh: connect to host 10\.0\.0\.9 port 22: Connection refused$/],
    ['an authentication failure', { code: 255, stderr: 'root@10.0.0.9: Permission denied (publickey).\n' }, /^ssh exit 255: root@10\.0\.0\.9: Permission denied \(publickey\)\.$/],
    ['a remote command that is not there', { code: 127, stderr: 'bash: line 1: govern: command not found\n' }, /^the remote command failed \(exit 127\): bash: line 1: govern: command not found$/],
    ['a timeout', { code: null, signal: 'SIGKILL', timedOut: true }, /^ssh timed out after 60s and was killed$/],
    ['too much output', { code: null, signal: 'SIGKILL', overflowed: true }, /^ssh wrote more output than allowed/],
    ['an ssh that cannot start', { code: null, spawnError: new Error('spawn nossh ENOENT') }, /^ssh could not be started: spawn nossh ENOENT$/],
    ['output that is not JSON', { stdout: 'Welcome to alpha!\n{"a":"1"}' }, /is not the JSON object of strings that "govern facts --json" prints: it starts with "Welcome to alpha!/],
    ['empty output', { stdout: '' }, /prints: it is empty$/],
    ['a JSON array', { stdout: '["a"]' }, /prints: it is an array$/],
    ['a JSON string', { stdout: '"a"' }, /prints: it is a string$/],
    ['JSON null', { stdout: 'null' }, /prints: it is null$/],
    ['a value that is not a string', { stdout: '{"a": "1", "b": {"c": "d"}}' }, /prints: fact "b" is an object$/],
    ['a number value', { stdout: '{"a": 1}' }, /prints: fact "a" is a number$/],
  ];
  for (const [what, over, expected] of failures) {
    it(`fails the whole host on ${what}`, () => {
      const answer = readAnswer(result(over), ['a'], 60_000);
      expect(answer.reached).to.equal(false);
      if (!answer.reached) expect(answer.error).to.match(expected);
    });
  }
});
