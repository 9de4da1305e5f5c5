import { expect } from 'chai';
import { providerContext } from '../../../../src/shared/command-runner.js';
import { UserError } from '../../../../src/shared/errors.js';
import { accountName, resolveAccount } from '../../../../src/runners/lib/accounts/lookup.js';

const context = providerContext(process.env, () => undefined);

describe('file runner getent provider #once', () => {
  it('resolves user and group names through getent', async () => {
    expect(await resolveAccount('passwd', { kind: 'name', name: 'root' }, context)).to.deep.equal({ id: 0, label: 'root' });
    expect(await resolveAccount('group', { kind: 'name', name: 'root' }, context)).to.deep.equal({ id: 0, label: 'root' });
  });

  it('takes a numeric id as it is, even one no account has', async () => {
    expect(await resolveAccount('passwd', { kind: 'id', id: 3999999 }, context)).to.deep.equal({ id: 3999999, label: '3999999' });
  });

  it('an unknown name is a UserError that names it', async () => {
    const error = await resolveAccount('group', { kind: 'name', name: 'no-such-group-gft' }, context).catch((e) => e);
    expect(error).to.be.instanceOf(UserError);
    expect(error.message).to.equal('unknown group "no-such-group-gft" (getent group no-such-group-gft found no entry)');
  });

  it('names an id for messages, or gives undefined', async () => {
    expect(await accountName('passwd', 0, context)).to.equal('root');
    expect(await accountName('group', 0, context)).to.equal('root');
    expect(await accountName('passwd', 3999999, context)).to.equal(undefined);
  });
});
