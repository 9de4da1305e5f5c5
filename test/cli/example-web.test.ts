// examples/web, the README's first tree of your own: every resource checked and ordered (govern
// graph, which applies nothing), and in noop on this host the plan of a new server.
import { expect } from 'chai';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, ROOT } from '../support/cli.js';

const WEB = path.join(ROOT, 'examples', 'web');

describe("examples/web (the README's first tree of your own)", function () {
  this.timeout(120_000);

  it('passes every check and orders the service after its package and the files after their user', async () => {
    const r = await govern(['graph', WEB]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.include('"pkg:lighttpd" -> "service:lighttpd"');
    expect(r.stdout).to.include('"user:webapp" -> "file:/srv/webapp"');
  });

  it('in noop, the files owned by the user the tree creates are planned with a note, not failed', async function () {
    if (process.getuid?.() !== 0) this.skip();
    const r = await govern(['run', '--noop', '--json', '--tags', 'user,file', WEB]);
    const report = JSON.parse(r.stdout) as RunReport;
    const file = report.resources.find((x) => x.ref === 'file:/srv/webapp');
    if (report.resources.find((x) => x.ref === 'user:webapp')?.status === 'unchanged') this.skip(); // the host has the user
    expect(file).to.deep.include({ status: 'changed', message: 'Would have created directory (user "webapp" and group "webapp" do not exist yet: user:webapp would create them)' });
  });
});
