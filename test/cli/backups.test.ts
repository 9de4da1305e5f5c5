// Backups go under the run's --var-dir, and govern backups lists them and restores one: atomically,
// with the owner and mode the file had, never through a symbolic link (docs/backups.md).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

const fileState = (live: string, contents: string) => `file "${live}" {\n  ensure   = "present"\n  contents = "${contents}"\n  owner    = "root"\n  group    = "root"\n  mode     = "0640"\n  backup   = true\n}\n`;

describe('govern backups', () => {
  it('keeps the backups under --var-dir, lists them with time and size, and restores one with its owner and mode', async () => {
    const dir = tempDir('govern-backups-');
    const varDir = path.join(dir, 'var');
    const live = writeFile(path.join(dir, 'out', 'app.conf'), 'first\n');
    fs.chownSync(live, 0, 0);
    fs.chmodSync(live, 0o600);
    const states = path.join(dir, 'states');
    const run = async (contents: string) => {
      writeFile(path.join(states, 'site.hcl'), fileState(live, contents));
      const r = await govern(['run', '--var-dir', varDir, states], { env: { GOVERN_VAR_DIR: '' } });
      expect(r.code, r.stdout + r.stderr).to.equal(0);
    };
    await run('second');
    await run('third');
    expect(fs.existsSync(path.join(varDir, 'backup', live))).to.equal(true);

    const list = await govern(['backups', '--var-dir', varDir]);
    expect(list.code, list.stderr).to.equal(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).to.have.length(2);
    for (const line of lines) expect(line).to.match(new RegExp(`^${live}  \\d{8}T\\d{9}Z  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  \\d+ bytes$`));
    expect(lines[0]).to.match(/  6 bytes$/); // "first\n"
    expect((await govern(['backups', 'list', '--var-dir', varDir, path.dirname(live)])).stdout).to.equal(list.stdout);
    const oldest = lines[0].split('  ')[1];

    // The file now: "third", mode 0640; the oldest copy had "first" with mode 0600.
    const restored = await govern(['backups', 'restore', '--var-dir', varDir, '--at', oldest, live]);
    expect(restored.code, restored.stderr).to.equal(0);
    expect(restored.stdout).to.equal(`restored ${live} from ${oldest} (6 bytes, owner 0:0, mode 0600)\n`);
    expect(fs.readFileSync(live, 'utf8')).to.equal('first\n');
    expect(fs.statSync(live).mode & 0o7777).to.equal(0o600);
    expect((await govern(['backups', 'restore', '--var-dir', varDir, live])).code).to.equal(0);
    expect(fs.readFileSync(live, 'utf8')).to.equal('second');
    expect(fs.statSync(live).mode & 0o7777).to.equal(0o640);
    expect(fs.readdirSync(path.dirname(live))).to.deep.equal(['app.conf']); // no temporary file left

    const missing = await govern(['backups', 'restore', '--var-dir', varDir, '--at', '20000101T000000000Z', live]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain(`govern: ${live}: no backup 20000101T000000000Z (there: `);
  });

  it('refuses to restore through a symbolic link, at the file or above it', async () => {
    const dir = tempDir('govern-backups-');
    const varDir = path.join(dir, 'var');
    const live = writeFile(path.join(dir, 'out', 'app.conf'), 'first\n');
    const states = path.join(dir, 'states');
    writeFile(path.join(states, 'site.hcl'), fileState(live, 'second'));
    expect((await govern(['run', '--var-dir', varDir, states])).code).to.equal(0);
    const elsewhere = writeFile(path.join(dir, 'elsewhere'), 'not to be touched\n');
    fs.rmSync(live);
    fs.symlinkSync(elsewhere, live);
    const r = await govern(['backups', 'restore', '--var-dir', varDir, live]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${live} is a symbolic link: refusing to follow it (remove it first to restore the file there)\n`);
    expect(fs.readFileSync(elsewhere, 'utf8')).to.equal('not to be touched\n');

    fs.rmSync(live);
    fs.renameSync(path.join(dir, 'out'), path.join(dir, 'real-out'));
    fs.symlinkSync(path.join(dir, 'real-out'), path.join(dir, 'out'));
    const above = await govern(['backups', 'restore', '--var-dir', varDir, live]);
    expect(above.code).to.equal(1);
    expect(above.stderr).to.contain('goes through a symbolic link');
    expect(fs.readdirSync(path.join(dir, 'real-out'))).to.deep.equal([]);
  });
});
