// A test that needs a program from outside the project skips, with the reason, when the program is
// missing or too old (issue 38, item 26: Debian 12's ansible-core 2.14, which has no
// deb822_repository, made the apt_repository differential test fail instead of skip). Checked with
// the real git, whose version this machine has, against minimums below and above it.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { toolMissing } from '../support/tools.js';

const GIT_VERSION = /git version (\d+\.\d+(?:\.\d+)?)/;
const installed = GIT_VERSION.exec(execFileSync('git', ['--version'], { encoding: 'utf8' }))![1];
const need = (version: string) => ({ command: 'git', minimum: { version, args: ['--version'], pattern: GIT_VERSION, what: 'has what the test uses' } });

describe('a test needing an outside program: missing or too old is a skip with the reason #once', () => {
  it('a version older than the minimum is a reason, naming both versions; the same or newer is none', async () => {
    const [major, minor] = installed.split('.').map(Number);
    expect(await toolMissing(need(`${major}.${minor + 1}`))).to.equal(`git ${installed} is older than ${major}.${minor + 1}, which has what the test uses`);
    expect(await toolMissing(need(`${major + 1}`))).to.equal(`git ${installed} is older than ${major + 1}, which has what the test uses`);
    expect(await toolMissing(need(installed))).to.equal(undefined);
    expect(await toolMissing(need(`${major - 1}.99`))).to.equal(undefined);
  });

  it('a program not installed, or whose version cannot be read, is a reason too', async () => {
    expect(await toolMissing('govern-no-such-program')).to.equal('govern-no-such-program is not installed');
    const unreadable = { ...need('1'), minimum: { ...need('1').minimum, pattern: /no such text (\d+)/ } };
    expect(await toolMissing(unreadable)).to.equal('cannot tell the version of git (git --version)');
  });
});
