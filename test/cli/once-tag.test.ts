// The passes' rule (docs/testing.md): a test that starts a run (govern run, resource, pull, listen,
// fleet) runs in every pass, so one tagged #once that starts a run is stopped with the reason rather
// than left out of the modes pass; a command that never applies (render, plan, --version...) is
// the same in every pass, and a #once test may start it.
import { expect } from 'chai';
import { govern } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const refusal = (e: unknown) => (e instanceof Error ? e.message : undefined);

describe('a test tagged #once', () => {
  it('that starts a run fails, saying to remove the tag', async () => {
    for (const args of [['run', tempDir('govern-once-')], ['resource', 'file', '/x'], ['pull'], ['listen'], ['fleet', 'hosts']]) {
      const error = await govern(args).then(() => undefined, refusal);
      expect(error, args.join(' ')).to.equal(`"a test tagged #once that starts a run fails, saying to remove the tag" starts govern ${args.find((a) => !a.startsWith('-'))}, so it depends on the runner mode and jobs: remove #once from its title`);
    }
  });

  it('may start a command that never applies', async () => {
    const version = await govern(['--version']);
    expect(version.code, version.stderr).to.equal(0);
    const help = await govern(['help', 'run']);
    expect(help.code, help.stderr).to.equal(0);
  });
});
