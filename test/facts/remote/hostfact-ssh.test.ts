// hostfact and `govern facts --host` end to end, against real sshd servers on 127.0.0.1: alpha,
// beta and gamma answer with their own facts, "locked" refuses the test's key, "closed" is a port
// nothing listens on. The remote govern is this checkout's bin/govern.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, GOVERN, shRunner } from '../../support/cli.js';
import { callRefs, readCalls, runnersWith } from '../../support/recording-runner.js';
import { startSshLab, writeFacts, type SshLab } from '../../support/sshd.js';
import { tempDir, writeFile } from '../../support/tmp.js';

const REMOTE_GOVERN = `${GOVERN} facts --json`;
const EVIL = 'he said "hi" ${HOME} %{if x} \\ $(id) `id`\nsecond line';

interface Tree {
  dir: string;
  runners: string;
  log: string;
  run(extra?: string[], env?: NodeJS.ProcessEnv): ReturnType<typeof govern>;
  calls(): string[];
}

describe('hostfact over ssh (real sshd)', function () {
  this.timeout(180_000);
  let lab: SshLab;

  before(async () => {
    lab = await startSshLab(
      [
        { name: 'alpha', facts: { hostname: 'alpha', 'network/primary/ip': '10.0.0.1', 'os/name': 'Linux', peer: 'gamma', evil: EVIL } },
        { name: 'beta', facts: { hostname: 'beta', 'network/primary/ip': '10.0.0.2', 'os/name': 'OpenBSD' } },
        { name: 'gamma', facts: { hostname: 'gamma', 'network/primary/ip': '10.0.0.3' } },
        { name: 'locked', facts: { hostname: 'locked' }, acceptsClientKey: false },
      ],
      ['closed'],
    );
  });

  after(async () => {
    await lab?.stop();
  });

  /** A state tree with recording runners, local facts, and the lab's ssh settings. */
  function tree(files: Record<string, string>, localFacts: Record<string, string> = {}): Tree {
    const dir = tempDir();
    const states = path.join(dir, 'states');
    const log = path.join(dir, 'calls.log');
    const runners = runnersWith(path.join(dir, 'runners'), log, ['pkg', 'stuff']);
    const facts = path.join(dir, 'facts');
    writeFacts(facts, { 'os/name': 'Linux', ...localFacts });
    for (const [name, content] of Object.entries(files)) writeFile(path.join(states, name), content);
    return {
      dir,
      runners,
      log,
      run: (extra = [], env = {}) => {
        // The lab's ssh settings, unless the test gives its own.
        const settings = [
          ['--ssh', lab.ssh],
          ['--remote-command', REMOTE_GOVERN],
        ].filter(([flag]) => !extra.includes(flag));
        return govern(['run', states, '--runners-dir', runners, '--facts-dir', facts, ...settings.flat(), ...extra], { env });
      },
      calls: () => callRefs(log),
    };
  }

  /** An ssh that logs its arguments (one line per connection) and then is ssh. */
  function loggingSsh(dir: string): { ssh: string; connections: () => string[] } {
    const log = path.join(dir, 'ssh.log');
    const wrapper = writeFile(path.join(dir, 'bin', 'ssh-logged'), `#!/bin/sh\necho "$*" >> ${log}\nexec ssh "$@"\n`, 0o755);
    return {
      ssh: `${wrapper} -F ${lab.config}`,
      connections: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []),
    };
  }

  describe('govern run', () => {
    it('renders facts of several hosts, with one ssh per host asking for all its facts at once', async () => {
      const t = tree({
        'a.hcl': `stuff "peers" {
  alpha = "{{hostfact "alpha" "network/primary/ip"}}"
  alpha_name = "{{hostfact "alpha" "hostname"}}"
  beta = "{{hostfact "beta" "network/primary/ip"}}"
}
`,
        'b.hcl': 'pkg "{{hostfact "gamma" "hostname"}}-tools" {}\npkg "{{hostfact "beta" "os/name"}}" {}\n',
      });
      const ssh = loggingSsh(t.dir);
      const r = await t.run(['--ssh', ssh.ssh]);
      expect(r.stderr).to.equal('');
      expect(r.code).to.equal(0);
      // Sorted: with --jobs N (GOVERN_JOBS) independent resources may be applied in any order.
      expect(readCalls(t.log).map((c) => [c.runner, c.name, ...c.args]).sort()).to.deep.equal([
        ['pkg', 'OpenBSD'],
        ['pkg', 'gamma-tools'],
        ['stuff', 'peers', 'alpha=10.0.0.1', 'alpha_name=alpha', 'beta=10.0.0.2'],
      ]);
      const connections = ssh.connections().sort();
      const options = `-F ${lab.config} -o BatchMode=yes -o ConnectTimeout=10 --`;
      expect(connections).to.deep.equal([
        `${options} alpha ${REMOTE_GOVERN} network/primary/ip hostname`,
        `${options} beta ${REMOTE_GOVERN} network/primary/ip os/name`,
        `${options} gamma ${REMOTE_GOVERN} hostname`,
      ]);
    });

    it('takes the host from a local fact, or from another host\'s fact', async () => {
      const t = tree(
        {
          'a.hcl': 'pkg "{{hostfact (fact "cluster/leader") "network/primary/ip"}}" {}\npkg "{{hostfact (hostfact "alpha" "peer") "hostname"}}" {}\n',
        },
        { 'cluster/leader': 'beta' },
      );
      const ssh = loggingSsh(t.dir);
      const r = await t.run(['--ssh', ssh.ssh]);
      expect(r.stderr).to.equal('');
      // Sorted: with --jobs N (GOVERN_JOBS) independent resources may be applied in any order.
      expect(t.calls().sort()).to.deep.equal(['pkg:10.0.0.2', 'pkg:gamma']);
      expect(ssh.connections().map((c) => c.split(' -- ')[1].split(' ')[0]).sort()).to.deep.equal(['alpha', 'beta', 'gamma']);
    });

    it('passes a remote value through quote as exactly one argument, and renders it unescaped', async () => {
      const t = tree({ 'a.hcl': 'dump "motd" {\n  text = {{quote (hostfact "alpha" "evil")}}\n}\n' });
      const out = path.join(t.dir, 'args');
      shRunner(t.runners, 'dump', `printf '%s\\0' "$@" > ${out}`);
      const r = await t.run();
      expect(r.stderr).to.equal('');
      expect(r.code).to.equal(0);
      expect(fs.readFileSync(out, 'utf8').split('\0').slice(0, -1)).to.deep.equal(['motd', `text=${EVIL}`]);

      const template = writeFile(path.join(t.dir, 'plain.tmpl'), '[{{hostfact "alpha" "evil"}}]\n');
      const rendered = await govern(['render', template, '--ssh', lab.ssh, '--remote-command', REMOTE_GOVERN]);
      expect(rendered.stdout).to.equal(`[${EVIL}]\n`);
    });

    it('reads the ssh and remote command settings from GOVERN_SSH and GOVERN_REMOTE_COMMAND', async () => {
      const dir = tempDir();
      const template = writeFile(path.join(dir, 't'), '{{hostfact "beta" "hostname"}}\n');
      const r = await govern(['render', template], { env: { GOVERN_SSH: lab.ssh, GOVERN_REMOTE_COMMAND: REMOTE_GOVERN } });
      expect(r.stderr).to.equal('');
      expect(r.stdout).to.equal('beta\n');
    });
  });

  describe('the parallel limit, counted from markers the remote side writes', () => {
    let markers: string;
    afterEach(() => {
      for (const host of ['alpha', 'beta', 'gamma']) fs.rmSync(path.join(lab.hosts.get(host)!.factsDir, 'probe'), { force: true });
    });

    /**
     * A remote fact that leaves a start marker, waits until `target` calls have started (or
     * waitTenths/10 seconds), then records how many calls are in flight (started, not ended) and
     * leaves an end marker. The first call to end records every call that overlapped it, since no
     * end marker exists yet; with the limit below target, the waiting calls hold their slots until
     * they give up.
     */
    function installProbe(target: number, waitTenths: number): string {
      markers = path.join(tempDir(), 'markers');
      fs.mkdirSync(markers);
      const probe = `#!/bin/sh
m=${markers}
count() { ls "$m" | grep -c "^$1\\."; }
me=$(mktemp "$m/start.XXXXXX")
i=0
while [ "$(count start)" -lt ${target} ] && [ "$i" -lt ${waitTenths} ]; do sleep 0.1; i=$((i + 1)); done
echo $(($(count start) - $(count end))) >> "$m/../inflight"
touch "$m/end.\${me##*.}"
echo probed
`;
      for (const host of ['alpha', 'beta', 'gamma']) writeFacts(lab.hosts.get(host)!.factsDir, { probe });
      return path.join(markers, '..', 'inflight');
    }

    const probeState = {
      'a.hcl': 'stuff "p" {\n  a = "{{hostfact "alpha" "probe"}}"\n  b = "{{hostfact "beta" "probe"}}"\n  c = "{{hostfact "gamma" "probe"}}"\n}\n',
    };

    for (const [parallel, target, waitTenths, expected] of [
      [2, 3, 15, 2],
      [3, 3, 80, 3],
    ] as const) {
      it(`keeps at most ${parallel} hosts in flight with --parallel ${parallel}, and reaches ${expected}`, async () => {
        const inflight = installProbe(target, waitTenths);
        const t = tree(probeState);
        const r = await t.run(['--parallel', String(parallel)]);
        expect(r.stderr).to.equal('');
        expect(readCalls(t.log)[0].args).to.deep.equal(['a=probed', 'b=probed', 'c=probed']);
        const counts = fs.readFileSync(inflight, 'utf8').trim().split('\n').map(Number);
        expect(counts).to.have.length(3);
        expect(Math.max(...counts)).to.equal(expected);
      });
    }
  });

  describe('errors stop the run before anything is applied, naming the host', () => {
    const cases: [string, string, string[], RegExp][] = [
      [
        'an unreachable host',
        'pkg "{{hostfact "closed" "hostname"}}" {}\n',
        [],
        /a\.hcl:1: hostfact "closed" "hostname": could not get facts from closed: ssh exit 255: ssh: connect to host 127\.0\.0\.1 port \d+: Connection refused/,
      ],
      [
        'a refused key',
        'pkg "{{hostfact "locked" "hostname"}}" {}\n',
        [],
        /a\.hcl:1: hostfact "locked" "hostname": could not get facts from locked: ssh exit 255: .*Permission denied \(publickey/,
      ],
      ['a missing fact', 'pkg "x" {}\n\npkg "{{hostfact "alpha" "no/such"}}" {}\n', [], /a\.hcl:3: hostfact "alpha" "no\/such": alpha answered: no such fact \(looked in .*alpha\/facts\)/],
      [
        'output that is not JSON',
        'pkg "{{hostfact "beta" "hostname"}}" {}\n',
        ['--remote-command', 'echo not json'],
        /hostfact "beta" "hostname": could not get facts from beta: the answer is not the JSON object of strings that "govern facts --json" prints: it starts with "not json hostname"/,
      ],
      [
        'JSON that is not an object of strings',
        'pkg "{{hostfact "beta" "hostname"}}" {}\n',
        ['--remote-command', `printf '{"hostname":1}'`],
        /could not get facts from beta: the answer is not the JSON object of strings .*: fact "hostname" is a number/,
      ],
      ['a host that would be an ssh option', 'pkg "{{hostfact "-oProxyCommand" "hostname"}}" {}\n', [], /hostfact "-oProxyCommand" "hostname": invalid host "-oProxyCommand": it must not start with "-"/],
      ['a fact name with shell syntax', 'pkg "{{hostfact "alpha" "x;reboot"}}" {}\n', [], /hostfact "alpha" "x;reboot": invalid fact name "x;reboot": character ";" is not allowed/],
    ];
    for (const [what, state, extra, expected] of cases) {
      it(`stops on ${what}`, async () => {
        const t = tree({ '0-first.hcl': 'pkg "early" {}\n', 'a.hcl': state });
        const r = await t.run(extra);
        expect(r.stderr).to.match(expected);
        expect(r.code).to.equal(1);
        expect(t.calls(), 'no runner may be called').to.deep.equal([]);
      });
    }

    it('stops on a host that takes longer than --host-timeout', async () => {
      const alphaFacts = lab.hosts.get('alpha')!.factsDir;
      writeFacts(alphaFacts, { 'slow/fact': '#!/bin/sh\nsleep 5\necho late\n' });
      try {
        const t = tree({ '0-first.hcl': 'pkg "early" {}\n', 'a.hcl': 'pkg "{{hostfact "alpha" "slow/fact"}}" {}\n' });
        const started = Date.now();
        const r = await t.run(['--host-timeout', '1s']);
        expect(Date.now() - started).to.be.below(4_500);
        expect(r.stderr).to.match(/a\.hcl:1: hostfact "alpha" "slow\/fact": could not get facts from alpha: ssh timed out after 1s and was killed/);
        expect(r.code).to.equal(1);
        expect(t.calls()).to.deep.equal([]);
      } finally {
        fs.rmSync(path.join(alphaFacts, 'slow'), { recursive: true, force: true });
      }
    });
  });

  describe('govern facts --host #once', () => {
    const remote = () => ['--ssh', lab.ssh, '--remote-command', REMOTE_GOVERN];

    it('prints a remote host\'s facts exactly as that host prints its own, as text and as JSON', async () => {
      const alphaFacts = lab.hosts.get('alpha')!.factsDir;
      for (const format of [[], ['--json']]) {
        const local = await govern(['facts', ...format], { env: { GOVERN_FACTS_PATH: alphaFacts } });
        const viaSsh = await govern(['facts', '--host', 'alpha', ...remote(), ...format]);
        expect(viaSsh.stderr).to.equal('');
        expect(viaSsh.code).to.equal(0);
        expect(viaSsh.stdout).to.equal(local.stdout);
      }
      const all = JSON.parse((await govern(['facts', '--host', 'beta', '--json', ...remote()])).stdout) as Record<string, string>;
      expect(all).to.deep.equal({ hostname: 'beta', 'network/primary/ip': '10.0.0.2', 'os/name': 'OpenBSD' });
    });

    it('prints the named facts; a fact the host does not have is reported and the rest printed', async () => {
      const some = await govern(['facts', '--host', 'gamma', 'network/primary/ip', 'hostname', ...remote()]);
      expect(some.stdout).to.equal('hostname\tgamma\nnetwork/primary/ip\t10.0.0.3\n');
      const missing = await govern(['facts', '--host', 'gamma', 'hostname', 'nope', ...remote()]);
      expect(missing.code).to.equal(1);
      expect(missing.stdout).to.equal('hostname\tgamma\n');
      expect(missing.stderr).to.match(/^govern: gamma: fact nope: no such fact/m);
    });

    it('names the host it cannot reach, and refuses names that could be options or shell syntax, and local-only options', async () => {
      const closed = await govern(['facts', '--host', 'closed', ...remote()]);
      expect(closed.code).to.equal(1);
      expect(closed.stdout).to.equal('');
      expect(closed.stderr).to.match(/govern: could not get facts from closed: ssh exit 255: .*Connection refused/);
      const option = await govern(['facts', '--host', '-oProxyCommand', ...remote()]);
      expect(option.stderr).to.contain('invalid host "-oProxyCommand": it must not start with "-"');
      const shell = await govern(['facts', '--host', 'alpha', 'a$(reboot)', ...remote()]);
      expect(shell.stderr).to.contain('invalid fact name "a$(reboot)": character "$" is not allowed');
      const local = await govern(['facts', '--host', 'alpha', '--facts-dir', '/tmp', ...remote()]);
      expect(local.code).to.equal(1);
      expect(local.stderr).to.contain('--facts-dir cannot be used with --host');
    });
  });
});
