// `.` and `..` are made of allowed characters, but a provider makes a path of the name
// (/etc/sv/NAME, /etc/init.d/NAME): planning refuses them with the resource's line.
import { expect } from 'chai';
import path from 'node:path';
import { govern, runner } from '../../support/cli.js';
import { tempDir, writeFile } from '../../support/tmp.js';

describe('service names "." and ".." #once', () => {
  it('are refused at planning, for every provider, each at its line', async () => {
    const dir = tempDir();
    const state = writeFile(path.join(dir, 'svc.hcl'), 'service ".." {\n  provider = "runit"\n}\nservice "." {\n  provider = "openrc"\n}\nservice "..." {\n  provider = "runit"\n}\n');
    const r = await govern(['plan', '--no-cache', state]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain("svc.hcl:1: service:..: ");
    expect(r.stderr).to.contain('it must not be ".." (a path, not a name)');
    expect(r.stderr).to.contain("svc.hcl:4: service:.: ");
    expect(r.stderr).not.to.contain('service:...');
  });

  it('are refused by the runner called by hand', async () => {
    const r = await runner('service', ['..', 'provider=runit'], { env: { GOVERN_NOOP: '1' } });
    expect(r.code).not.to.equal(0);
    expect(r.stderr).to.contain('it must not be ".."');
  });
});
