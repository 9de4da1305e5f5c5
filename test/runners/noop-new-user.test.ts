// `--noop` on a new host: a user the run would create does not exist yet, so neither do its keys'
// home nor the group useradd makes for it (its user private group). The key and a file of that group
// say what they would do, naming the user, and the file is ordered after the user (--jobs cannot
// race them). The real runners; the user is never created (noop).
import { expect } from 'chai';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { hostExclusive } from '../support/host-lock.js';

const USER = `govern-nnu-${process.pid}`;
const KEY = 'AAAAC3NzaC1lZDI1NTE5AAAAIGovZXJuLW5vb3AtbmV3LXVzZXItdGVzdC1rZXktMDA=';

describe('noop on a new host: the keys and the private group of a user the run creates', function () {
  hostExclusive();
  this.timeout(120_000);

  it('the key would be added and the file would get the group, each naming the user, after it', async () => {
    const dir = tempDir('govern-nnu-');
    const file = path.join(dir, 'app.conf');
    const states = writeFile(
      path.join(tempDir('govern-nnu-states-'), 'tree.hcl'),
      `user "${USER}" {\n  home = "${path.join(dir, 'home')}"\n  shell = "/bin/sh"\n}\n` +
        `authorized_key "deploy" {\n  user = "${USER}"\n  type = "ssh-ed25519"\n  key = "${KEY}"\n}\n` +
        `file "${file}" {\n  ensure = "present"\n  contents = "x\\n"\n  owner = "root"\n  group = "${USER}"\n  mode = "0640"\n}\n`,
    );
    const graph = await govern(['graph', path.dirname(states)]);
    expect(graph.stdout, graph.stderr).to.contain(`"user:${USER}" -> "file:${file}" [label="autorequire"];`);
    const r = await govern(['run', '--noop', '--json', '--jobs', '4', path.dirname(states)]);
    const report = JSON.parse(r.stdout) as RunReport;
    const byRef = new Map(report.resources.map((x) => [x.ref, x]));
    expect(report.resources.map((x) => x.status), r.stdout).to.deep.equal(['changed', 'changed', 'changed']);
    expect(byRef.get('authorized_key:deploy')?.message).to.equal(`Would have added the key (user "${USER}" does not exist yet: user:${USER} would create it)`);
    expect(byRef.get(`file:${file}`)?.message).to.contain(`group "${USER}" does not exist yet: user:${USER} would create it`);
    expect(r.code, r.stderr).to.equal(0);
  });
});
