// Options read once at the edge: flag, else GOVERN_* variable, else default; every problem at once.
import { expect } from 'chai';
import { commands } from '../../src/cli/all-commands.js';
import { formatOptionHelp, optionTable, parseCommandLine, resolveOptions, takesValue } from '../../src/cli/options.js';

const table = optionTable([
  { name: 'noop', short: 'n', kind: 'flag', help: 'x', otherNames: ['check', 'dry-run'] },
  { name: 'verbose', short: 'v', kind: 'counter', help: 'x' },
  { name: 'jobs', short: 'j', kind: 'number', placeholder: 'N', env: 'T_JOBS', default: '1', help: 'x' },
  { name: 'mode', kind: 'choice', choices: ['a', 'b'], env: 'T_MODE', default: 'a', help: 'x' },
  { name: 'timeout', kind: 'duration', placeholder: 'DURATION', env: 'T_TIMEOUT', help: 'x' },
  { name: 'facts-dir', kind: 'dirs', placeholder: 'DIR', env: 'T_PATH', help: 'x' },
  { name: 'tags', kind: 'list', placeholder: 'TAGS', help: 'x' },
  { name: 'ssh', kind: 'command', placeholder: 'COMMAND', default: 'ssh', help: 'x' },
]);

const resolve = (argv: string[], env: NodeJS.ProcessEnv = {}) => resolveOptions(table, parseCommandLine(argv, table, 'run'), env);

describe('command-line options #once', () => {
  it('resolve into one typed object: flag, else variable, else default', () => {
    expect(resolve([])).to.deep.equal({ noop: false, verbose: 0, jobs: 1, mode: 'a', timeout: undefined, factsDir: { added: [], path: undefined }, tags: [], ssh: ['ssh'] });
    const env = { T_JOBS: '3', T_MODE: 'b', T_TIMEOUT: '1m', T_PATH: '/x::/y' };
    expect(resolve([], env)).to.deep.include({ jobs: 3, mode: 'b', timeout: 60_000, factsDir: { added: [], path: ['/x', '/y'] } });
    const o = resolve(['-nvv', '-j4', '--mode=a', '--timeout', '2s', '--facts-dir', '/a', '--facts-dir=/b', '--tags', 'web,tls', '--tags', 'db', '--ssh', "ssh -F 'my config'", 'PATH'], env);
    expect(o).to.deep.equal({ noop: true, verbose: 2, jobs: 4, mode: 'a', timeout: 2000, factsDir: { added: ['/a', '/b'], path: ['/x', '/y'] }, tags: ['web', 'tls', 'db'], ssh: ['ssh', '-F', 'my config'] });
  });

  it('keep operands, also after --, and the last of a single-valued option given twice', () => {
    const line = parseCommandLine(['a', '--jobs', '2', '--', '--noop', '-j', '3'], table, 'run');
    expect(line.operands).to.deep.equal(['a', '--noop', '-j', '3']);
    expect(resolve(['-j', '2', '--jobs', '5']).jobs).to.equal(5);
  });

  it('report every problem at once, naming the flag or the variable, and suggest what other tools call an option', () => {
    expect(() => resolve(['--check', '--verbos', '-x', '--jobs', '0', '--noop=yes', '--mode', 'c', '--timeout'], { T_TIMEOUT: 'soon' })).to.throw(
      [
        'unknown option --check (did you mean --noop?); see govern run --help',
        'unknown option --verbos (did you mean --verbose?); see govern run --help',
        'unknown option -x; see govern run --help',
        '--noop takes no value',
        '--timeout needs a value (DURATION)',
        '--jobs must be a positive whole number, not "0"',
        '--mode must be a or b, not "c"',
        'T_TIMEOUT: invalid duration "soon": use a number with s, m or h, such as 30s, 5m or 1h',
      ].join('\n'),
    );
    expect(() => resolve(['--dry-run'])).to.throw('unknown option --dry-run (did you mean --noop?)');
    expect(() => resolve([], { T_TIMEOUT: '0s' })).to.throw('T_TIMEOUT must be more than 0');
  });

  it('make the help of each option from its table entry', () => {
    expect(formatOptionHelp(table).split('\n')).to.include.members([
      '  -j, --jobs N                   x (default 1; T_JOBS)',
      '      --mode VALUE               x (a or b; default a; T_MODE)',
      '      --facts-dir DIR            x (T_PATH is the whole path; repeatable)',
    ]);
  });

  it('every command: options named once, short letters once, a value placeholder for each value', () => {
    for (const command of commands) {
      const names = command.options.map((o) => o.name);
      const shorts = command.options.flatMap((o) => (o.short ? [o.short] : []));
      expect(new Set(names).size, command.name).to.equal(names.length);
      expect(new Set(shorts).size, command.name).to.equal(shorts.length);
      for (const o of command.options) {
        expect(!takesValue(o) || o.placeholder !== undefined, `${command.name} --${o.name}`).to.equal(true);
        expect(o.env === undefined || o.env.startsWith('GOVERN_'), `${command.name} --${o.name}`).to.equal(true);
      }
    }
  });
});
