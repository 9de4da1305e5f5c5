import { expect } from 'chai';
import { act, providerContext, query } from '../../../src/shared/command-runner.js';
import { UserError } from '../../../src/shared/errors.js';

describe('service provider commands #once', () => {
  it('reports a query command that cannot be started', async () => {
    const context = providerContext({ PATH: '/nonexistent' }, () => undefined);
    let error: unknown;
    await query(context, ['govern-no-such-command', 'status']).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(UserError);
    expect((error as Error).message).to.equal('govern-no-such-command status failed (program not found: govern-no-such-command)');
  });

  it('logs an action and its output, and turns a failure into an error with its last output', async () => {
    const logs: string[] = [];
    const context = providerContext(process.env, (l) => logs.push(l));
    await act(context, ['sh', '-c', 'echo done']);
    let error: unknown;
    await act(context, ['sh', '-c', 'echo oops >&2; exit 4'], { hint: () => 'a hint' }).catch((e: unknown) => (error = e));
    expect(logs).to.deep.equal(["$ sh -c 'echo done'", 'done', "$ sh -c 'echo oops >&2; exit 4'", 'oops']);
    expect((error as Error).message).to.equal("sh -c 'echo oops >&2; exit 4' failed (exit 4): oops; a hint");
  });
});
