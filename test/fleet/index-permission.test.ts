// A host whose server configuration predates the index (no permission to read govern_index or
// govern_indexed): `hosts "role=web"` in its templates still answers, from the whole bucket.
import { expect } from 'chai';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { startNats, stopAllNats, type NatsServer } from '../support/nats.js';
import { tempDir, writeFile } from '../support/tmp.js';
import fs from 'node:fs';
import { connect, nkeyAuthenticator } from '@nats-io/transport-node';
import { putHostValues } from '../../src/fleet/index-publish.js';
import { fleet, simulatedRun } from './support.js';

const OLD_HOST_PERMISSIONS = (ops: string, web1: string) => `
accounts {
  GOVERN {
    jetstream: enabled
    users: [
      { nkey: "${ops}" }
      { nkey: "${web1}", permissions: {
          publish: { allow: [
            "$KV.govern_runs.web1", "$KV.govern_facts.web1",
            "$JS.API.STREAM.INFO.KV_govern_facts", "$JS.API.STREAM.MSG.GET.KV_govern_facts", "$JS.API.DIRECT.GET.KV_govern_facts",
            "$JS.API.CONSUMER.CREATE.KV_govern_facts.*.$KV.govern_facts.>", "$JS.API.CONSUMER.INFO.KV_govern_facts.>",
            "$JS.API.CONSUMER.DELETE.KV_govern_facts.>", "$JS.FC.KV_govern_facts.>"
          ] }
          subscribe: { allow: ["_GOVERN_INBOX.web1.>"] }
      } }
    ]
  }
}
`;

describe('fleet: hosts with credentials that may not read the index', function () {
  this.timeout(120_000);
  let nats: NatsServer;
  let dir: string;
  const keyFile = (name: string) => path.join(dir, `${name}.nk`);
  const key = async (name: string) => {
    const r = await govern(['fleet', 'key', keyFile(name)]);
    expect(r.code, r.stderr).to.equal(0);
    return r.stdout.trim();
  };
  beforeEach(async () => {
    dir = tempDir();
    nats = await startNats(OLD_HOST_PERMISSIONS(await key('ops'), await key('web1')));
  });
  afterEach(stopAllNats);

  it('hosts "role=web" reads the whole bucket, and answers right', async () => {
    const first = await fleet(nats.url, ['--fleet-creds', keyFile('ops')]);
    expect(first.code, first.stdout + first.stderr).to.equal(3);
    expect(first.stdout).to.include('no host');
    const seed = new TextEncoder().encode(fs.readFileSync(keyFile('ops'), 'utf8').trim());
    const nc = await connect({ servers: nats.url, authenticator: nkeyAuthenticator(seed) });
    try {
      for (const [host, role] of [['web1', 'web'], ['web2', 'web'], ['db1', 'db']]) {
        const puts = [
          { bucket: 'govern_runs', key: host, value: JSON.stringify(simulatedRun(host)) },
          { bucket: 'govern_facts', key: host, value: JSON.stringify({ format: 1, host, at: new Date().toISOString(), facts: { fqdn: host, role } }) },
        ];
        expect(await putHostValues(nc, host, puts, { deadline: Date.now() + 10_000 })).to.equal(undefined);
      }
    } finally {
      await nc.close();
    }
    const file = writeFile(path.join(dir, 't.hbs'), '{{#each (hosts "role=web")}}{{this.name}} {{/each}}');
    const r = await govern(['render', file, '--fleet-url', nats.url, '--fleet-creds', keyFile('web1'), '--fleet-name', 'web1', '--fleet-timeout', '5s']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('web1 web2 ');
  });
});
