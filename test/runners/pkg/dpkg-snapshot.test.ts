import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { DpkgSnapshot } from '../../../src/runners/pkg/dpkg-snapshot.js';
import { tempDir, writeFile } from '../../support/tmp.js';

describe('DpkgSnapshot #once', () => {
  function setup() {
    const dir = tempDir();
    const status = writeFile(path.join(dir, 'status'), 'Package: a\n');
    const updates = path.join(dir, 'updates');
    fs.mkdirSync(updates);
    let output = 'a 1.0-1 amd64 installed\nlib 2.0 amd64 installed\nlib 2.0 i386 config-files\n';
    let queries = 0;
    const query = async () => {
      queries++;
      return output;
    };
    return {
      snapshot: new DpkgSnapshot([status, updates]),
      query,
      queries: () => queries,
      setOutput: (o: string) => (output = o),
      status,
      updates,
    };
  }

  it('answers every package from one query while the database is unchanged', async () => {
    const t = setup();
    expect(await t.snapshot.linesFor('a', t.query)).to.deep.equal(['a 1.0-1 amd64 installed']);
    expect(await t.snapshot.linesFor('lib', t.query)).to.deep.equal(['lib 2.0 amd64 installed', 'lib 2.0 i386 config-files']);
    expect(await t.snapshot.linesFor('lib:i386', t.query)).to.deep.equal(['lib 2.0 i386 config-files']);
    expect(await t.snapshot.linesFor('absent', t.query)).to.deep.equal([]);
    expect(t.queries()).to.equal(1);
  });

  it('queries again once dpkg replaced its status file or journalled an update', async () => {
    const t = setup();
    await t.snapshot.linesFor('a', t.query);
    t.setOutput('a 1.1-1 amd64 installed\n');
    const replacement = `${t.status}.new`;
    fs.writeFileSync(replacement, 'Package: a\nVersion: 1.1-1\n');
    fs.renameSync(replacement, t.status);
    expect(await t.snapshot.linesFor('a', t.query)).to.deep.equal(['a 1.1-1 amd64 installed']);
    expect(t.queries()).to.equal(2);
    writeFile(path.join(t.updates, '0001'), 'Package: a\n');
    await t.snapshot.linesFor('a', t.query);
    expect(t.queries()).to.equal(3);
  });

  it('queries every time when there is no database to watch', async () => {
    const t = setup();
    const blind = new DpkgSnapshot([path.join(tempDir(), 'missing')]);
    await blind.linesFor('a', t.query);
    await blind.linesFor('a', t.query);
    expect(t.queries()).to.equal(2);
  });
});
