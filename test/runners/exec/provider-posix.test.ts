import { expect } from 'chai';
import path from 'node:path';
import { posixProvider } from '../../../src/runners/exec/provider-posix.js';
import { findProgram, splitCommand } from '../../../src/runners/lib/command-line.js';
import { providerContext } from '../../../src/shared/command-runner.js';
import { UserError } from '../../../src/shared/errors.js';
import { tempDir, writeFile } from '../../support/tmp.js';

describe('exec posix provider #once', () => {
  describe('splitting a command into argv', () => {
    const splits: [string, string[]][] = [
      ['echo a b', ['echo', 'a', 'b']],
      ['  echo   a\tb  ', ['echo', 'a', 'b']],
      ['echo "hello world" \'a b\'', ['echo', 'hello world', 'a b']],
      ['echo a\\ b', ['echo', 'a b']],
      ['echo "it\'s" \'say "hi"\'', ['echo', "it's", 'say "hi"']],
      ['echo "a|b" \'c;d\' "e && f" \'>g\'', ['echo', 'a|b', 'c;d', 'e && f', '>g']],
      ['echo \'$HOME\' \\$HOME "\\$HOME"', ['echo', '$HOME', '$HOME', '$HOME']],
      ['echo "*.c" \'?\' "~" \'[ab]\' \'#x\' \'`id`\'', ['echo', '*.c', '?', '~', '[ab]', '#x', '`id`']],
      ['[ -f /etc/passwd ]', ['[', '-f', '/etc/passwd', ']']],
      ['echo "line one\nline two"', ['echo', 'line one\nline two']],
      ['echo a=~/x --opt=value', ['echo', 'a=~/x', '--opt=value']],
      ['echo ""', ['echo', '']],
    ];
    for (const [command, argv] of splits) {
      it(`splits ${JSON.stringify(command)}`, () => {
        expect(splitCommand(command)).to.deep.equal(argv);
      });
    }
  });

  describe('refusing what needs a shell', () => {
    const refusals: [string, RegExp][] = [
      ['ls | wc -l', /shell operator "\|"/],
      ['true; false', /shell operator ";"/],
      ['true && false', /shell operator "&&"/],
      ['true || false', /shell operator "\|\|"/],
      ['sleep 1 &', /shell operator "&"/],
      ['echo a > /tmp/x', /shell operator ">"/],
      ['echo a >> /tmp/x', /shell operator ">>"/],
      ['cat < /etc/passwd', /shell operator "<"/],
      ['echo a 2>&1', /shell operator ">&"/],
      ['(cd /tmp)', /shell operator "\("/],
      ['echo $(id)', /shell operator "\("/],
      ['echo $HOME', /the variable "\$HOME"/],
      ['echo ${HOME}', /the variable "\$HOME"/],
      ['echo "$HOME"', /the variable "\$HOME"/],
      ['echo $$', /the variable "\$\$"/],
      ['echo `id`', /command substitution "`"/],
      ['echo "`id`"', /command substitution "`"/],
      ['ls *.c', /the glob "\*\.c"/],
      ['ls file?', /the glob "file\?"/],
      ['ls [ab].c', /the glob "\[\.\.\.\]"/],
      ['ls ~/x', /home directory expansion "~"/],
      ['ls ~', /home directory expansion "~"/],
      ['echo a # comment', /"#" \(which starts a comment\)/],
      ['echo a\necho b', /line break U\+000A/],
    ];
    for (const [command, message] of refusals) {
      it(`refuses ${JSON.stringify(command)}, suggesting provider = "shell"`, () => {
        expect(() => splitCommand(command)).to.throw(UserError, message);
        expect(() => splitCommand(command)).to.throw(/use provider = "shell"/);
      });
    }

    it('refuses a leading variable assignment, suggesting environment', () => {
      expect(() => splitCommand('LANG=C sort x')).to.throw(UserError, /environment = \["LANG=C"\]/);
    });

    it('refuses a command with no program', () => {
      expect(() => splitCommand('  ')).to.throw(UserError, /no program/);
    });
  });

  describe('finding the program', () => {
    it('looks it up in the PATH it is given, in order', () => {
      const first = tempDir();
      const second = tempDir();
      writeFile(path.join(second, 'tool'), '#!/bin/sh\n', 0o755);
      expect(findProgram('tool', `${first}:${second}`)).to.equal(path.join(second, 'tool'));
      writeFile(path.join(first, 'tool'), '#!/bin/sh\n', 0o755);
      expect(findProgram('tool', `${first}:${second}`)).to.equal(path.join(first, 'tool'));
    });

    it('skips files that are not executable, and directories', () => {
      const dir = tempDir();
      writeFile(path.join(dir, 'a', 'tool'), '#!/bin/sh\n', 0o644);
      writeFile(path.join(dir, 'b', 'tool', 'x'), '');
      writeFile(path.join(dir, 'c', 'tool'), '#!/bin/sh\n', 0o755);
      const dirs = ['a', 'b', 'c'].map((d) => path.join(dir, d)).join(':');
      expect(findProgram('tool', dirs)).to.equal(path.join(dir, 'c', 'tool'));
    });

    it('does not look in the PATH the runner itself has', () => {
      const dir = tempDir();
      expect(() => findProgram('sh', dir)).to.throw(/program "sh" not found in PATH/);
    });

    it('uses a name with a slash as it is', () => {
      expect(findProgram('./configure', '/nonexistent')).to.equal('./configure');
    });

    it('hints at the shell provider for a shell builtin', () => {
      expect(() => findProgram('cd', '/usr/bin:/bin')).to.throw(/"cd" is part of the shell: use provider = "shell"/);
    });

    it('runs the program found in the given PATH: a fake echo ahead of /bin/echo', async () => {
      const dir = tempDir();
      writeFile(path.join(dir, 'echo'), '#!/bin/sh\nprintf "fake echo %s\\n" "$*"\n', 0o755);
      const r = await posixProvider(providerContext(process.env, () => undefined)).run(['echo', 'hi'], { env: { PATH: `${dir}:/usr/bin:/bin` }, timeoutMs: 10_000 });
      expect(r.stdout).to.equal('fake echo hi\n');
    });
  });
});
