// The runner's own rules: nothing runs before everything is validated, and the executable speaks
// the runner protocol (result lines on stdout, exit 1 with message= on a failure).
import { expect } from 'chai';
import type { RunOptions, RunResult } from '../../../src/shared/process.js';
import { Params } from '../../../src/shared/protocol.js';
import { ValidationError } from '../../../src/shared/validate.js';
import { RunnerError, type RunnerRequest } from '../../../src/runners/kit.js';
import { serviceRunner } from '../../../src/runners/service/runner.js';
import { runner } from '../../support/cli.js';

function recordingRunner() {
  const commands: string[][] = [];
  const run = async (command: string, args: string[], _options: RunOptions): Promise<RunResult> => {
    commands.push([command, ...args]);
    return { code: 0, signal: null, stdout: 'active\n', stderr: '', timedOut: false, overflowed: false, durationMs: 0 };
  };
  return { commands, runService: serviceRunner(run) };
}

function request(name: string, args: [string, string][], extra: Partial<RunnerRequest> = {}): RunnerRequest {
  return { name, params: new Params(args), noop: false, env: {}, log: () => undefined, ...extra };
}

describe('service runner', () => {
  describe('validates before any command runs (commands recorded, not run)', () => {
    const cases: [string, RunnerRequest, RegExp][] = [
      ['a bad name', request('nginx;reboot', [['provider', 'systemd']]), /invalid service name "nginx;reboot": character ";" is not allowed/],
      ['a bad property value', request('nginx', [['provider', 'systemd'], ['ensure', 'up']]), /ensure must be/],
      ['an unknown property', request('nginx', [['provider', 'systemd'], ['enabled', 'true']]), /unknown property enabled/],
      ['an unknown signal', request('nginx', [['provider', 'systemd']], { signal: 'hup' }), /unexpected signal: hup/],
    ];
    for (const [what, req, message] of cases) {
      it(`refuses ${what}`, async () => {
        const { commands, runService } = recordingRunner();
        let error: unknown;
        await runService(req).catch((e: unknown) => (error = e));
        expect(error).to.be.instanceOf(Error);
        expect(error).to.satisfy((e: Error) => e instanceof ValidationError || e instanceof RunnerError);
        expect((error as Error).message).to.match(message);
        expect(commands).to.deep.equal([]);
      });
    }
  });

  it('in noop mode queries the status and changes nothing (commands recorded, not run)', async () => {
    const { commands, runService } = recordingRunner();
    const logs: string[] = [];
    const result = await runService(request('app', [['provider', 'systemd'], ['ensure', 'stopped']], { noop: true, log: (l) => logs.push(l) }));
    expect(result).to.deep.equal({ changed: true, message: 'Would have stopped' });
    expect(commands.map((c) => c[2])).to.deep.equal(['is-active', 'is-enabled']);
    expect(logs).to.deep.equal(['noop: would stop app (systemd)']);
  });

  describe('the executable', () => {
    it('prints message= and error: and exits 1 on a bad name', async () => {
      const result = await runner('service', ['a|b']);
      expect(result.code).to.equal(1);
      expect(result.stdout).to.equal('message=invalid service name "a|b": character "|" is not allowed (allowed: letters, digits and . _ + : ~ -)\n');
      expect(result.stderr).to.include('error: invalid service name');
    });

    it('refuses a scope the sysv provider does not have', async () => {
      const result = await runner('service', ['app', 'provider=sysv', 'scope=user']);
      expect(result.code).to.equal(1);
      expect(result.stdout).to.include('needs the systemd provider');
    });
  });
});
