// The man page and the bash completion, generated as `make install` generates them, checked
// against what govern itself says in --help, and the completion run in a real bash.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const MANUAL = path.join(ROOT, 'dist', 'src', 'manual', 'main.js');

/** Generates into a file that lasts until `after` (tempDir's go after each test). */
async function generate(what: string): Promise<string> {
  const r = await runCommand(process.execPath, [MANUAL, what, '--prefix', '/usr', '--sysconfdir', '/etc']);
  expect(r.code, r.stderr).to.equal(0);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'govern-manual-')), what);
  fs.writeFileSync(file, r.stdout);
  return file;
}

function removeGenerated(file: string): void {
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

/** The commands `govern --help` lists, and each one's options as its --help prints them. */
async function helpOptions(): Promise<Map<string, string[]>> {
  const top = await runCommand(GOVERN, ['--help']);
  const names = [...top.stdout.matchAll(/^ {2}govern ([a-z]+)\b/gm)].map((m) => m[1]).filter((n) => n !== 'help');
  const options = new Map<string, string[]>();
  for (const name of names) {
    const help = await runCommand(GOVERN, [name, '--help']);
    options.set(name, [...help.stdout.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]));
  }
  return options;
}

describe('man page (govern.1) #once', () => {
  let text: string;
  let page: string;
  before(async () => {
    page = await generate('man');
    const r = await runCommand('man', ['--warnings', '-l', page], { env: { ...process.env, MANWIDTH: '200', MAN_KEEP_FORMATTING: '' } });
    expect(r.stderr, 'groff has no warning about the page').to.equal('');
    text = r.stdout;
  });
  after(() => removeGenerated(page));

  it('describes every command and every option govern --help shows', async () => {
    const options = await helpOptions();
    expect([...options.keys()]).to.include.members(['run', 'facts', 'render', 'graph', 'versioncmp']);
    for (const [name, list] of options) {
      expect(text, `command ${name}`).to.match(new RegExp(`^ {7}${name}\\b`, 'm'));
      expect(list, `${name} has options`).to.not.be.empty;
      for (const option of list) expect(text, `${name} ${option}`).to.match(new RegExp(`^ {7}(-\\w, )?${option}\\b`, 'm'));
    }
  });

  it('has the exit statuses, the environment and the files of the installation it was made for', () => {
    for (const heading of ['NAME', 'SYNOPSIS', 'COMMANDS', 'OPTIONS', 'EXIT STATUS', 'ENVIRONMENT', 'FILES']) expect(text).to.match(new RegExp(`^${heading}$`, 'm'));
    expect(text).to.match(/^ {7}GOVERN_RUNNER_MODE$/m);
    expect(text).to.match(/^ {7}GOVERN_FACTS_PATH$/m);
    expect(text).to.match(/^ {7}\/etc\/govern\/facts\.d$/m);
    expect(text).to.match(/^ {7}\/usr\/lib\/govern\/bin$/m);
  });

  it("names that installation's directories in the commands' help too, not those of the govern that made it", () => {
    expect(text).to.include('Without PATH, applies /etc/govern/states.');
    expect(text).to.not.include('/usr/local');
    expect(text).to.not.include(ROOT);
  });
});

describe('bash completion #once', () => {
  let script: string;
  before(async () => {
    script = await generate('bash-completion');
  });
  after(() => removeGenerated(script));

  /** What Tab offers after the words (the last one is the word being completed). */
  async function complete(words: string[], cwd = ROOT): Promise<string[]> {
    const program = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _govern; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await runCommand('bash', ['-c', program, 'bash', script, ...words], { cwd });
    expect(r.code, r.stderr).to.equal(0);
    return r.stdout.split('\n').filter((l) => l !== '');
  }

  it('completes commands, and each command\'s options', async () => {
    expect(await complete(['govern', 'r'])).to.have.members(['run', 'resource', 'render']);
    expect(await complete(['govern', 'help', 'v'])).to.deep.equal(['versioncmp']);
    expect(await complete(['govern', 'run', '--runner-'])).to.have.members(['--runner-mode', '--runner-timeout']);
    expect(await complete(['govern', 'versioncmp', '--'])).to.have.members(['--scheme', '--ignore-trailing-zeroes', '--help']);
  });

  it('completes the fixed values of an option, also after "="', async () => {
    expect(await complete(['govern', 'run', '--runner-mode', ''])).to.have.members(['persistent', 'oneshot']);
    expect(await complete(['govern', 'run', '--color', ''])).to.have.members(['auto', 'always', 'never']);
    expect(await complete(['govern', 'run', '--runner-mode', '=', 'one'])).to.deep.equal(['oneshot']);
    expect(await complete(['govern', 'versioncmp', '--scheme', 'r'])).to.deep.equal(['rpm']);
    expect(await complete(['govern', 'run', '--jobs', ''])).to.deep.equal([]);
  });

  it('completes state files and directories for govern run, directories for --facts-dir', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'site.hcl'), '');
    writeFile(path.join(dir, 'notes.txt'), '');
    writeFile(path.join(dir, 'roles', 'web.hcl'), '');
    expect(await complete(['govern', 'run', ''], dir)).to.have.members(['roles', 'site.hcl']);
    expect(await complete(['govern', 'graph', 'roles/'], dir)).to.deep.equal(['roles/web.hcl']);
    expect(await complete(['govern', 'run', '--facts-dir', ''], dir)).to.deep.equal(['roles']);
  });

  it('completes fact names after govern facts, from the govern being completed', async () => {
    expect(await complete([GOVERN, 'facts', 'os/'])).to.include.members(['os/name', 'os/family', 'os/release']);
    expect(await complete([GOVERN, 'facts', 'os/n'])).to.deep.equal(['os/name']);
  });
});
