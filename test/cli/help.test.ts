// Help and mistakes at the command line: `govern help COMMAND`, and one-line suggestions.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { commands } from '../../src/cli/all-commands.js';
import { COMMANDS } from '../../src/cli/command-index.js';
import { govern } from '../support/cli.js';

describe('govern help and suggestions', () => {
  it('govern help COMMAND is govern COMMAND --help, generated from the option table', async () => {
    for (const name of ['run', 'graph', 'render', 'facts', 'versioncmp']) {
      const help = await govern(['help', name]);
      expect(help.code).to.equal(0);
      expect(help.stdout).to.equal((await govern([name, '--help'])).stdout);
      expect(help.stdout).to.match(new RegExp(`^usage: govern ${name} `));
    }
    const run = (await govern(['help', 'run'])).stdout;
    expect(run).to.match(/^ {2}-j, --jobs N +apply up to N independent resources at once \(default 1;\s+GOVERN_JOBS\)$/m);
    expect(run).to.match(/^ {6}--color WHEN +colour the text output; [^(]*\(auto, always or never; default auto; GOVERN_COLOR\)$/m);
    expect((await govern(['help'])).stdout).to.match(/^ {2}govern help COMMAND/m);
  });

  it('lists every command from the index, and loads no command module for govern --help #once', async () => {
    expect(commands.map((c) => c.name)).to.deep.equal(COMMANDS.map((c) => c.name));
    for (const entry of COMMANDS) expect(await entry.load(), entry.name).to.equal(commands.find((c) => c.name === entry.name));
    const help = (await govern(['--help'])).stdout;
    for (const c of commands) expect(help).to.contain(`  ${c.usage.padEnd(44)} ${c.summary}\n`);
    const main = path.resolve(__dirname, '../../src/cli/main.js');
    const loaded = spawnSync(process.execPath, ['-e', `process.on('exit', () => console.error(Object.keys(require.cache).join('\\n'))); require(${JSON.stringify(main)}).main(['--help'])`], {
      encoding: 'utf8',
    }).stderr;
    expect(loaded).to.contain(`${path.sep}cli${path.sep}command-index.js`);
    expect(loaded.split('\n').filter((m) => m.includes(`${path.sep}commands${path.sep}`))).to.deep.equal([]);
  });

  it('prints govern --help without loading Node\'s streams, and says in one line why it could not #once', () => {
    const bin = path.resolve(__dirname, '../../../bin/govern');
    const probe = `process.argv = [process.argv[0], ${JSON.stringify(bin)}, '--help']; process.on('exit', () => require('node:fs').writeSync(2, process.moduleLoadList.filter((m) => /^NativeModule (net|stream)$/.test(m)).join(',') + '\\n')); require(${JSON.stringify(bin)})`;
    const loaded = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(loaded.stdout).to.match(/^govern: configuration management/);
    expect(loaded.stderr).to.equal('\n');
    const full = spawnSync(bin, ['--help'], { encoding: 'utf8', stdio: ['ignore', fs.openSync('/dev/full', 'w'), 'pipe'] });
    expect(full.status).to.equal(1);
    expect(full.stderr).to.match(/^govern: cannot write the usage: ENOSPC: [^\n]*\n$/);
  });

  it('answers an unknown command or option in one line, with the closest one', async () => {
    const apply = await govern(['apply', 'states/']);
    expect(apply.code).to.equal(1);
    expect(apply.stderr).to.equal('govern: unknown command "apply" (did you mean "run"?); see govern --help\n');
    expect((await govern(['rnu'])).stderr).to.equal('govern: unknown command "rnu" (did you mean "run"?); see govern --help\n');
    expect((await govern(['help', 'grpah'])).stderr).to.equal('govern: unknown command "grpah" (did you mean "graph"?); see govern --help\n');
    for (const option of ['--check', '--dry-run']) {
      const r = await govern(['run', option, 'states/']);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.equal(`govern: unknown option ${option} (did you mean --noop?); see govern run --help\n`);
    }
    expect((await govern(['graph', '--runner-dir', 'x', 'states/'])).stderr).to.equal(
      'govern: unknown option --runner-dir (did you mean --runners-dir?); see govern graph --help\n',
    );
  });
});
