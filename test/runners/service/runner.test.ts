// The runner's own rules: nothing runs before everything is validated, and the executable speaks
// the runner protocol (result lines on stdout, exit 1 with message= on a failure).
import { expect } from 'chai';
import { UserError } from '../../../src/shared/errors.js';
import type { RunOptions, RunResult } from '../../../src/shared/process.js';
import { handle } from '../../../src/runners/kit/index.js';
import { serviceRunner } from '../../../src/runners/service/runner.js';
import fs from 'node:fs';
import path from 'node:path';
import { runner } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

interface Request {
  name: string;
  args: [string, string][];
  env?: NodeJS.ProcessEnv;
  log?(line: string): void;
}

function recordingRunner() {
  const commands: string[][] = [];
  const run = async (command: string, args: string[], _options?: RunOptions): Promise<RunResult> => {
    commands.push([command, ...args]);
    return { code: 0, signal: null, stdout: 'active\n', stderr: '', timedOut: false, overflowed: false, durationMs: 0 };
  };
  const definition = serviceRunner(run);
  const runService = (r: Request) => handle(definition, [r.name, ...r.args.map(([k, v]) => `${k}=${v}`)], r.env ?? {}, r.log ?? (() => undefined));
  return { commands, runService };
}

function request(name: string, args: [string, string][], extra: Omit<Request, 'name' | 'args'> = {}): Request {
  return { name, args, ...extra };
}

describe('service runner #once', () => {
  describe('validates before any command runs (commands recorded, not run)', () => {
    const cases: [string, Request, RegExp][] = [
      ['a bad name', request('nginx;reboot', [['provider', 'systemd']]), /name "nginx;reboot" is not a service name .*\(character ";" is not allowed\)/],
      ['a bad value', request('nginx', [['provider', 'systemd'], ['ensure', 'up']]), /ensure "up" is not one of running, stopped/],
      ['an unknown key', request('nginx', [['provider', 'systemd'], ['enabled', 'true']]), /unknown key "enabled" \(did you mean "enable"\?\)/],
      ['an unknown signal', request('nginx', [['provider', 'systemd']], { env: { GOVERN_SIGNAL: 'hup' } }), /service does not accept the signal "hup" \(it accepts refresh, restart, reload, start, stop\)/],
    ];
    for (const [what, req, message] of cases) {
      it(`refuses ${what}`, async () => {
        const { commands, runService } = recordingRunner();
        let error: unknown;
        await runService(req).catch((e: unknown) => (error = e));
        expect(error).to.be.instanceOf(UserError);
        expect((error as Error).message).to.match(message);
        expect(commands).to.deep.equal([]);
      });
    }
  });

  it('in noop mode queries the status and changes nothing (commands recorded, not run)', async () => {
    const { commands, runService } = recordingRunner();
    const logs: string[] = [];
    const result = await runService(request('app', [['provider', 'systemd'], ['ensure', 'stopped']], { env: { GOVERN_NOOP: '1' }, log: (l) => logs.push(l) }));
    expect(result).to.deep.equal({ changed: true, message: 'Would have stopped' });
    expect(commands.map((c) => c[2])).to.deep.equal(['is-active', 'is-enabled']);
    expect(logs).to.deep.equal(['noop: would stop app (systemd)']);
  });

  describe('a unit changed earlier in the run (commands recorded, not run)', () => {
    const reload = ['systemctl', '--no-ask-password', 'daemon-reload'];
    const pending = (runDir: string) => {
      fs.mkdirSync(path.join(runDir, 'unit'));
      fs.writeFileSync(path.join(runDir, 'unit', 'daemon-reload-system'), '');
    };

    it('runs the daemon-reload a unit left pending once, before the status of a template instance, and never again', async () => {
      const runDir = tempDir('govern-service-run-');
      pending(runDir);
      const { commands, runService } = recordingRunner();
      await runService(request('getty@tty1', [['provider', 'systemd']], { env: { GOVERN_RUN_DIR: runDir } }));
      await runService(request('app', [['provider', 'systemd']], { env: { GOVERN_RUN_DIR: runDir } }));
      expect(commands.filter((c) => c.includes('daemon-reload'))).to.deep.equal([reload]);
      expect(commands[0]).to.deep.equal(reload);
      expect(commands[1]).to.deep.equal(['systemctl', '--no-ask-password', 'is-active', '--', 'getty@tty1']);
    });

    it('runs none when no unit changed, for the other scope, or with the sysv provider', async () => {
      const runDir = tempDir('govern-service-run-');
      const { commands, runService } = recordingRunner();
      await runService(request('app', [['provider', 'systemd']], { env: { GOVERN_RUN_DIR: runDir } }));
      pending(runDir);
      await runService(request('app', [['provider', 'systemd'], ['scope', 'user']], { env: { GOVERN_RUN_DIR: runDir } }));
      expect(commands.flat()).to.not.include('daemon-reload');
    });
  });

  describe('the executable', () => {
    it('prints message= and error: and exits 1 on a bad name', async () => {
      const result = await runner('service', ['a|b']);
      expect(result.code).to.equal(1);
      expect(result.stdout).to.equal('message=name "a|b" is not a service name (letters, digits and . _ + : ~ - @, not starting with -, not . or ..) (character "|" is not allowed)\n');
      expect(result.stderr).to.include('error: name "a|b" is not a service name');
    });

    it('refuses a scope the sysv provider does not have', async () => {
      const result = await runner('service', ['app', 'provider=sysv', 'scope=user']);
      expect(result.code).to.equal(1);
      expect(result.stdout).to.include('provider must be "systemd" when scope = "user", not "sysv"');
    });
  });
});
