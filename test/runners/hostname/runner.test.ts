// runners/hostname in both modes, on a file of the test's own (the real /etc/hostname is the machine's).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { callRunner, MODES } from '../../support/runner-modes.js';
import { tempDir } from '../../support/tmp.js';

describe('hostname runner', () => {
  for (const mode of MODES) {
    it(`writes the name, then changes nothing; refresh does nothing (${mode})`, async () => {
      const file = path.join(tempDir('govern-hostname-'), 'hostname');
      expect(await callRunner('hostname', mode, 'web1', [`file=${file}`])).to.include({ ok: true, changed: true });
      expect(fs.readFileSync(file, 'utf8')).to.equal('web1\n');
      expect(await callRunner('hostname', mode, 'web1', [`file=${file}`])).to.include({ ok: true, changed: false });
      expect(await callRunner('hostname', mode, 'web1', [`file=${file}`], { GOVERN_SIGNAL: 'refresh' })).to.include({ ok: true, changed: false, message: 'refresh: nothing to do for a host name' });
    });
  }
});
