// `validate` on the file and line runners, with a real validator (`sh -n %`): a failing check leaves
// the live file exactly as it was (same inode, same content) and fails the resource with the
// validator's output; a passing one lets the new content in. A command without % is refused by govern
// before anything is applied. In noop mode the check runs too (on a temporary copy): a noop does not
// say "Would have" for content the real run would refuse.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, RUNNERS_DIR, runnerOutcome } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const OWNED = ['owner=root', 'group=root', 'mode=0644'];

describe('validate (file and line runners)', () => {
  it('file: a failing check leaves the live file untouched and says why; a passing one replaces it #once', async () => {
    const dir = tempDir('govern-validate-');
    const live = writeFile(path.join(dir, 'run.sh'), 'echo ok\n');
    const inode = fs.statSync(live).ino;
    const bad = await runnerOutcome('file', [live, 'ensure=present', 'contents=if then fi\n', ...OWNED, 'validate=sh -n %']);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.match(/^validate sh -n % failed \(exit 2\): .*Syntax error: "then" unexpected; .*run\.sh left as it was$/);
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo ok\n');
    expect(fs.statSync(live).ino).to.equal(inode);
    expect(fs.readdirSync(dir)).to.deep.equal(['run.sh']); // the temporary copy is gone

    const good = await runnerOutcome('file', [live, 'ensure=present', 'contents=echo new\n', ...OWNED, 'validate=/bin/sh -n %']);
    expect(good).to.deep.include({ code: 0, changed: true });
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo new\n');
    expect(fs.readdirSync(dir)).to.deep.equal(['run.sh']);
  });

  it('file: nothing is validated when nothing would be written #once', async () => {
    const dir = tempDir('govern-validate-');
    const live = writeFile(path.join(dir, 'run.sh'), 'echo ok\n');
    // `false %` would fail any content it were given.
    expect(await runnerOutcome('file', [live, 'ensure=present', 'contents=echo ok\n', ...OWNED, 'validate=false %'])).to.deep.include({ code: 0, changed: false });
    expect(await runnerOutcome('file', [live, 'ensure=present', 'contents=echo ok\n', ...OWNED, 'validate=false %'], { env: { GOVERN_NOOP: '1' } })).to.deep.include({ code: 0, changed: false });
  });

  it('file in noop: content the real run would refuse fails the noop too, nothing live changes; valid content is Would have #once', async () => {
    const dir = tempDir('govern-validate-');
    const live = writeFile(path.join(dir, 'run.sh'), 'echo ok\n');
    const inode = fs.statSync(live).ino;
    const noop = { env: { GOVERN_NOOP: '1' } };
    const bad = await runnerOutcome('file', [live, 'ensure=present', 'contents=if then fi\n', ...OWNED, 'validate=sh -n %'], noop);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.match(/^validate sh -n % failed \(exit 2\): .*Syntax error: "then" unexpected; the real run would fail here, leaving .*run\.sh as it is$/);
    const good = await runnerOutcome('file', [live, 'ensure=present', 'contents=echo new\n', ...OWNED, 'validate=sh -n %'], noop);
    expect(good).to.deep.include({ code: 0, changed: true });
    expect(good.message).to.match(/^Would have changed content/);
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo ok\n');
    expect(fs.statSync(live).ino).to.equal(inode);
    expect(fs.readdirSync(dir)).to.deep.equal(['run.sh']); // the temporary copies are gone

    // A directory an earlier resource would create: nothing to write beside, so not validated.
    const later = await runnerOutcome('file', [path.join(dir, 'new', 'run.sh'), 'ensure=present', 'contents=if\n', ...OWNED, 'validate=sh -n %'], noop);
    expect(later).to.deep.include({ code: 0, changed: true });
    expect(fs.existsSync(path.join(dir, 'new'))).to.equal(false);
  });

  it('govern run --noop reports the broken content as failed, with its state file and line', async () => {
    const dir = tempDir('govern-validate-');
    const live = writeFile(path.join(dir, 'run.sh'), 'echo ok\n');
    writeFile(path.join(dir, 'states', 'a.hcl'), `file "${live}" {\n  ensure   = "present"\n  contents = "if then fi\\n"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  validate = "sh -n %"\n}\n`);
    const r = await govern(['run', '--noop', '--runners-dir', RUNNERS_DIR, path.join(dir, 'states')]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.match(new RegExp(`^failed +file:${live} \\(.*a\\.hcl:1\\) +validate sh -n % failed`, 'm'));
    expect(r.stdout).to.not.match(/Would have/);
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo ok\n');
  });

  it('line: a failing check leaves the live file untouched #once', async () => {
    const dir = tempDir('govern-validate-');
    const live = writeFile(path.join(dir, 'run.sh'), 'echo ok\n');
    const bad = await runnerOutcome('line', ['l', `path=${live}`, 'line=if (', 'validate=sh -n %']);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.match(/^validate sh -n % failed \(exit 2\): .*Syntax error/);
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo ok\n');
    const good = await runnerOutcome('line', ['l', `path=${live}`, 'line=echo two', 'validate=sh -n %']);
    expect(good).to.deep.include({ code: 0, changed: true });
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo ok\necho two\n');
  });

  it('line in noop: an edit the real run would refuse fails the noop too; the file is left as it is #once', async () => {
    const dir = tempDir('govern-validate-');
    const live = writeFile(path.join(dir, 'run.sh'), 'echo ok\n');
    const noop = { env: { GOVERN_NOOP: '1' } };
    const bad = await runnerOutcome('line', ['l', `path=${live}`, 'line=if (', 'validate=sh -n %'], noop);
    expect(bad.code).to.equal(1);
    expect(bad.message).to.match(/^validate sh -n % failed \(exit 2\): .*Syntax error.*the real run would fail here/);
    const good = await runnerOutcome('line', ['l', `path=${live}`, 'line=echo two', 'validate=sh -n %'], noop);
    expect(good).to.deep.include({ code: 0, changed: true });
    expect(fs.readFileSync(live, 'utf8')).to.equal('echo ok\n');
    expect(fs.readdirSync(dir)).to.deep.equal(['run.sh']);
  });

  it('a command without % is refused at planning, with the file and line', async () => {
    const dir = tempDir('govern-validate-');
    writeFile(path.join(dir, 'states', 'a.hcl'), `file "${dir}/x" {\n  ensure   = "present"\n  contents = "x"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  validate = "sh -n"\n}\n`);
    const r = await govern(['run', '--runners-dir', RUNNERS_DIR, path.join(dir, 'states')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(`a.hcl:7: file:${dir}/x: validate "sh -n" is not a command with % standing alone for the file to check`);
    expect(fs.existsSync(path.join(dir, 'x'))).to.equal(false);
  });
});
