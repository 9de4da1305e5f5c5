import { expect } from 'chai';
import { RunnerError } from '../../../src/runners/kit.js';
import { accountName, resolveAccount } from '../../../src/runners/file/provider-getent.js';

describe('file runner getent provider', () => {
  it('resolves user and group names through getent', async () => {
    expect(await resolveAccount('passwd', { kind: 'name', name: 'root' }, process.env)).to.deep.equal({ id: 0, label: 'root' });
    expect(await resolveAccount('group', { kind: 'name', name: 'root' }, process.env)).to.deep.equal({ id: 0, label: 'root' });
  });

  it('takes a numeric id as it is, even one no account has', async () => {
    expect(await resolveAccount('passwd', { kind: 'id', id: 3999999 }, process.env)).to.deep.equal({ id: 3999999, label: '3999999' });
  });

  it('an unknown name is a RunnerError that names it', async () => {
    const error = await resolveAccount('group', { kind: 'name', name: 'no-such-group-gft' }, process.env).catch((e) => e);
    expect(error).to.be.instanceOf(RunnerError);
    expect(error.message).to.equal('unknown group "no-such-group-gft" (getent group no-such-group-gft found no entry)');
  });

  it('names an id for messages, or gives undefined', async () => {
    expect(await accountName('passwd', 0, process.env)).to.equal('root');
    expect(await accountName('group', 0, process.env)).to.equal('root');
    expect(await accountName('passwd', 3999999, process.env)).to.equal(undefined);
  });
});
