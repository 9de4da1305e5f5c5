// The passes' rule (docs/testing.md): a test that starts govern runs in every pass, so one tagged
// #once that starts govern is stopped with the reason rather than left out of the modes pass.
import { expect } from 'chai';
import { govern } from '../support/cli.js';

describe('a test tagged #once', () => {
  it('that starts govern fails, saying to remove the tag', async () => {
    const error = await govern(['--version']).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('"a test tagged #once that starts govern fails, saying to remove the tag" starts govern, so it depends on the runner mode and jobs: remove #once from its title');
  });
});
