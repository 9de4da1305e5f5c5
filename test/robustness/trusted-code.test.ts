// Code govern runs as root must be changeable by root alone: a runner or an executable fact that
// another user owns or can write, or that sits below a directory another user can change, is
// refused with a message naming it, before anything is applied (runners) or when it is read (facts).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { trustedProgram } from '../../src/shared/trust.js';
import { govern, RUNNERS_DIR, shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const NOBODY = 65534;

/** A tree whose first resource uses a trusted runner (which records that it ran), the second `shadow`. */
function setup() {
  const dir = tempDir();
  const ran = path.join(dir, 'ran');
  const good = path.join(dir, 'good');
  shRunner(good, 'first', `[ -z "$GOVERN_DESCRIBE" ] || exit 0\necho "$1" >> ${ran}; echo changed=true`);
  const bad = path.join(dir, 'bad');
  const shadow = shRunner(bad, 'shadow', `[ -z "$GOVERN_DESCRIBE" ] || exit 0\necho "$1" >> ${ran}; echo changed=true`);
  const states = path.join(dir, 'states');
  writeFile(path.join(states, 'main.hcl'), 'first "one" {}\n\nshadow "two" {}\n');
  const run = () => govern(['run', states, '--runners-dir', bad, '--runners-dir', good]);
  return { dir, ran, bad, shadow, run };
}

function expectRefusedBeforeApply(r: { code: number | null; stderr: string }, ran: string, what: RegExp): void {
  expect(r.code).to.equal(1);
  expect(r.stderr).to.match(/main\.hcl:3: runner "shadow": refusing to run /);
  expect(r.stderr).to.match(what);
  expect(fs.existsSync(ran), 'a resource was applied although a runner was refused').to.equal(false);
}

describe('code govern runs is trusted only when no one else can change it', () => {
  it('refuses a runner owned by another user, naming it, its owner and mode', async () => {
    const t = setup();
    fs.chownSync(t.shadow, NOBODY, 0);
    expectRefusedBeforeApply(await t.run(), t.ran, new RegExp(`${t.shadow} is owned by uid ${NOBODY} \\(mode 0755\\)`));
  });

  it('refuses a runner in a directory anyone can write, and a group-writable runner', async () => {
    const t = setup();
    fs.chmodSync(t.bad, 0o777);
    expectRefusedBeforeApply(await t.run(), t.ran, new RegExp(`${t.bad} is writable by anyone \\(mode 0777; chmod go-w`));
    fs.chmodSync(t.bad, 0o755);
    fs.chmodSync(t.shadow, 0o775);
    expectRefusedBeforeApply(await t.run(), t.ran, /shadow is writable by its group \(mode 0775/);
  });

  it('refuses a runner below a directory another user owns, and through a link another user owns', async () => {
    const t = setup();
    const theirs = path.join(t.dir, 'theirs');
    fs.mkdirSync(theirs);
    fs.renameSync(t.bad, path.join(theirs, 'bad'));
    fs.symlinkSync(path.join(theirs, 'bad'), t.bad);
    fs.chownSync(theirs, NOBODY, 0);
    expectRefusedBeforeApply(await t.run(), t.ran, new RegExp(`${theirs} is owned by uid ${NOBODY}`));
    // The directory is root's again, but the link to it is not: its owner could point it anywhere.
    fs.chownSync(theirs, 0, 0);
    fs.lchownSync(t.bad, NOBODY, 0);
    expectRefusedBeforeApply(await t.run(), t.ran, new RegExp(`the symbolic link ${t.bad} is owned by uid ${NOBODY}`));
    fs.lchownSync(t.bad, 0, 0);
    const r = await t.run();
    expect(r.code, r.stderr).to.equal(0);
    // Both ran; with --jobs (the second pass) the two independent resources may finish in either order.
    expect(fs.readFileSync(t.ran, 'utf8').split('\n').filter(Boolean).sort()).to.deep.equal(['one', 'two']);
  });

  it("follows root's own links (/bin/sh on merged /usr) and resolves them to the path it runs", () => {
    const sh = trustedProgram('/bin/sh');
    expect(sh).to.have.property('path');
    expect(fs.lstatSync((sh as { path: string }).path).isSymbolicLink()).to.equal(false);
    expect(trustedProgram(path.join(RUNNERS_DIR, 'file'))).to.deep.equal({ path: path.join(RUNNERS_DIR, 'file') });
  });

  it('refuses an executable fact anyone can write, when it is read, and runs nothing of it', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'ran');
    const fact = writeFile(path.join(dir, 'facts', 'evil'), `#!/bin/sh\ntouch ${marker}\necho pwned\n`, 0o777);
    writeFile(path.join(dir, 'facts', 'fine'), '#!/bin/sh\necho fine\n', 0o755);
    const r = await govern(['facts', 'evil', 'fine'], { env: { GOVERN_FACTS_PATH: path.join(dir, 'facts') } });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`refusing to run ${fact}: ${fact} is writable by anyone (mode 0777`);
    expect(fs.existsSync(marker)).to.equal(false);
    const states = path.join(dir, 'states');
    writeFile(path.join(states, 'main.hcl'), 'first "{{fact "evil"}}" {}\n');
    const run = await govern(['run', states, '--facts-dir', path.join(dir, 'facts')], { env: { GOVERN_FACTS_PATH: '' } });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.contain(`refusing to run ${fact}`);
    expect(fs.existsSync(marker)).to.equal(false);
  });
});
