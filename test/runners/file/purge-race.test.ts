// purge = true against a process that swaps what an unmanaged directory holds for links while the
// removal runs (as that directory's owner can): the moment a subdirectory is half emptied, it is
// renamed away and a link to a directory outside, holding files of the same names, put in its place.
// The removal holds each directory by handle, so nothing outside is ever removed, however the
// swaps fall (both runner modes, several rounds each).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

const DIRS = 12;
const FILES = 150;
const ROUNDS = 3;

// Swaps u/dI for a link to VICTIM as soon as dI is a directory the removal has begun to empty.
const SWAPPER = `
const fs = require('fs'), path = require('path');
const [u, victim, dirs, files] = process.argv.slice(1);
let n = 0;
for (;;) {
  for (let i = 0; i < Number(dirs); i++) {
    const d = path.join(u, 'd' + i);
    try {
      if (!fs.lstatSync(d).isDirectory()) continue;
      const left = fs.readdirSync(d).length;
      if (left === 0 || left === Number(files)) continue;
      fs.renameSync(d, path.join(u, '.moved' + n++));
      fs.symlinkSync(victim, d);
      process.stdout.write('s');
    } catch {}
  }
  try { fs.statSync(u); } catch { process.exit(0); }
}`;

const names = Array.from({ length: FILES }, (_, i) => `f${i}`);

for (const mode of MODES) {
  describe(`file runner: purge while links are swapped in (${mode}) #once`, function () {
    this.timeout(300_000);

    it(`removes the unmanaged directory and never a file outside it (${ROUNDS} rounds)`, async () => {
      let swaps = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const base = tempDir('govern-purge-race-');
        const victim = path.join(base, 'victim');
        fs.mkdirSync(victim);
        for (const f of names) fs.writeFileSync(path.join(victim, f), 'root\'s\n');
        const purged = path.join(base, 'purged');
        const u = path.join(purged, 'u');
        for (let i = 0; i < DIRS; i++) {
          fs.mkdirSync(path.join(u, `d${i}`), { recursive: true });
          for (const f of names) fs.writeFileSync(path.join(u, `d${i}`, f), 'theirs\n');
        }
        const swapper = spawn(process.execPath, ['-e', SWAPPER, u, victim, String(DIRS), String(FILES)], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        swapper.stdout.on('data', (c: Buffer) => (out += c.toString()));
        const exited = new Promise((resolve) => swapper.once('exit', resolve));
        const r = await callRunner('file', mode, purged, ['ensure=directory', 'owner=root', 'group=root', 'mode=0755', 'purge=true'], { GOVERN_MANAGED_CHILDREN: '' });
        swapper.kill();
        await exited;
        swaps += out.length;
        expect(fs.readdirSync(victim).sort(), `round ${round}: ${r.message}`).to.deep.equal([...names].sort());
        if (r.ok) expect(fs.readdirSync(purged)).to.deep.equal([]);
        else expect(r.message).to.match(/kept changing while govern removed it/);
      }
      // The test proves something only if swaps happened during removals.
      expect(swaps).to.be.greaterThan(0);
    });
  });
}
