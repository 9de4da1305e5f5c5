// Many hosts pulling one state repository at once over a real sshd on 127.0.0.1, as a fleet's
// timers make them do: wall time, and the CPU the server (sshd and the git-upload-pack it starts)
// and the clients spent, for a first pull (a clone), a pull with nothing new, and a pull of one
// new commit. docs/fleet.md extrapolates from these figures.
//   node dist/bench/fleet/pulls.js [--hosts 50] [--rounds 3] [--files 120] [--max-startups SPEC]
// Run as root (sshd), on a quiet machine, holding the test lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';
import { GOVERN } from '../../test/support/cli.js';
import { startSshLab } from '../../test/support/sshd.js';
import { cpuSeconds } from '../lib/system.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const HOSTS = Number(args.get('hosts') ?? 50);
const ROUNDS = Number(args.get('rounds') ?? 3);
const FILES = Number(args.get('files') ?? 120);
/** sshd's MaxStartups; its default, 10:30:100, drops connections past 10 unauthenticated ones. */
const MAX_STARTUPS = args.get('max-startups');

async function must(command: string, argv: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await runCommand(command, argv, { env: env && { ...process.env, ...env }, timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`${command} ${argv.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A state tree of FILES files of about 1.5 kB, and a history of 20 signed commits. */
async function makeRepository(root: string): Promise<{ bare: string; work: string; allowed: string; commit(): Promise<void> }> {
  const key = path.join(root, 'signing_key');
  await must('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ops', '-f', key]);
  const allowed = path.join(root, 'allowed_signers');
  fs.writeFileSync(allowed, `ops@example.org ${fs.readFileSync(`${key}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}\n`);
  const bare = path.join(root, 'states.git');
  const work = path.join(root, 'work');
  await must('git', ['init', '-q', '--bare', '--initial-branch=main', bare]);
  await must('git', ['init', '-q', '--initial-branch=main', work]);
  const git = (...a: string[]) => must('git', ['-C', work, '-c', 'user.name=Ops', '-c', 'user.email=ops@example.org', '-c', 'gpg.format=ssh', '-c', `user.signingkey=${key}`, ...a]);
  let n = 0;
  const commit = async () => {
    n++;
    for (let i = 0; i < FILES; i++) {
      const file = path.join(work, `role-${i % 12}`, `service-${i}.hcl`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Most files unchanged from one commit to the next, as in a real repository.
      const version = i % 10 === n % 10 ? n : 0;
      const body = Array.from({ length: 30 }, (_, j) => `  # setting ${j} of service ${i}, revision ${version}`).join('\n');
      fs.writeFileSync(file, `file "/etc/fleet/service-${i}.conf" {\n  ensure = "present"\n${body}\n}\n`);
    }
    await git('add', '--all');
    await git('commit', '-q', '-S', '-m', `revision ${n}`);
    await git('push', '-q', '--force', bare, 'HEAD:refs/heads/main');
  };
  for (let i = 0; i < 20; i++) await commit();
  return { bare, work, allowed, commit };
}

interface Round {
  name: string;
  wallSeconds: number;
  failed: number;
  serverCpu: number;
  clientCpu: number;
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-fleet-'));
  const options = MAX_STARTUPS ? [`MaxStartups ${MAX_STARTUPS}`] : [];
  const lab = await startSshLab([{ name: 'gitserver' }], [], options);
  try {
    process.stderr.write(`load before: ${fs.readFileSync('/proc/loadavg', 'utf8')}`);
    const repo = await makeRepository(root);
    const sshdPid = Number(fs.readFileSync(lab.hosts.get('gitserver')!.pidFile, 'utf8'));
    const url = `ssh://gitserver${repo.bare}`;
    const env = { GIT_SSH_COMMAND: lab.ssh };
    const round = async (name: string): Promise<Round> => {
      const server0 = cpuSeconds(sshdPid);
      const client0 = cpuSeconds('self');
      const started = process.hrtime.bigint();
      const results = await Promise.all(
        Array.from({ length: HOSTS }, (_, i) => {
          const host = path.join(root, 'hosts', `host-${i}`);
          return runCommand(GOVERN, ['pull', '--var-dir', path.join(host, 'var'), '--allowed-signers', repo.allowed, url, path.join(host, 'states')], {
            env: { ...process.env, ...env },
            timeoutMs: 600_000,
          });
        }),
      );
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const failed = results.filter((r) => r.code !== 0);
      if (failed.length > 0) process.stderr.write(`${name}: ${failed.length} failed, e.g. ${failed[0].stderr.trim()}\n`);
      // sshd reaps its sessions when they end; let it catch up before reading its children's time.
      await new Promise((r) => setTimeout(r, 500));
      return { name, wallSeconds, failed: failed.length, serverCpu: cpuSeconds(sshdPid) - server0, clientCpu: cpuSeconds('self') - client0 };
    };
    const rounds: Round[] = [await round('first pull (clone)')];
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push(await round('nothing new'));
      await repo.commit();
      rounds.push(await round('one new commit'));
    }
    const size = await must('du', ['-sk', repo.bare]);
    console.log(`${HOSTS} hosts at once, ${FILES} files, repository ${size.split('\t')[0]} kB, MaxStartups ${MAX_STARTUPS ?? 'default (10:30:100)'}, ${os.cpus().length} cores\n`);
    console.log('| pull | wall (s) | failed | server CPU (s) | server CPU per good pull (ms) | clients CPU (s) |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rounds) {
      console.log(`| ${r.name} | ${r.wallSeconds.toFixed(2)} | ${r.failed} | ${r.serverCpu.toFixed(2)} | ${((r.serverCpu / Math.max(1, HOSTS - r.failed)) * 1000).toFixed(1)} | ${r.clientCpu.toFixed(2)} |`);
    }
    process.stderr.write(`load after: ${fs.readFileSync('/proc/loadavg', 'utf8')}`);
  } finally {
    await lab.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
