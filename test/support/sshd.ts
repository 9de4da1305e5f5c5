// Real OpenSSH servers for tests: one `sshd -D` per host on 127.0.0.1 and a free high port, with
// host keys and a client key made for the test, and an ssh_config naming the hosts, to be used as
// `--ssh "ssh -F CONFIG"`. Every host is this machine and this user, so each sshd gives its sessions
// their own facts directory (sshd_config SetEnv GOVERN_FACTS_PATH=...).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../../src/shared/process.js';

/** sshd re-executes itself, so it must be started by absolute path. */
export const SSHD = '/usr/sbin/sshd';
/** sshd's privilege separation directory; Debian's service creates it at boot, tests may have to. */
const PRIVSEP_DIR = '/run/sshd';

export interface HostSpec {
  name: string;
  /** Facts of this host: name -> file content (mode 0755 when the content starts with "#!"). */
  facts?: Record<string, string>;
  /** false: authorized_keys holds another key, so the test's client key is refused. */
  acceptsClientKey?: boolean;
}

export interface LabHost {
  name: string;
  port: number;
  factsDir: string;
  /** The file sshd writes its pid to. */
  pidFile: string;
}

export interface SshLab {
  dir: string;
  /** The ssh_config file. */
  config: string;
  /** The value for --ssh / GOVERN_SSH. */
  ssh: string;
  hosts: Map<string, LabHost>;
  /** Stops every sshd and removes the lab's directory. */
  stop(): Promise<void>;
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Hosts in `closed` are in the ssh_config, on a port nothing listens on; `sshdOptions` go into every sshd_config. */
export async function startSshLab(hosts: HostSpec[], closed: string[] = [], sshdOptions: string[] = []): Promise<SshLab> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-sshd-'));
  const running: Running[] = [];
  // Should mocha exit without running the after hooks (interrupted, say), no sshd may outlive it.
  const killAll = () => running.forEach((r) => killGroup(r.child));
  process.on('exit', killAll);
  const stop = async () => {
    killAll();
    await Promise.all(running.map((r) => r.exited));
    process.off('exit', killAll);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    fs.mkdirSync(PRIVSEP_DIR, { recursive: true, mode: 0o755 });
    const clientKey = await keygen(path.join(dir, 'client_key'));
    const otherKey = await keygen(path.join(dir, 'other_key'));
    const known: string[] = [];
    const configHosts: string[] = [];
    const lab = new Map<string, LabHost>();
    for (const spec of hosts) {
      const hostDir = path.join(dir, spec.name);
      fs.mkdirSync(hostDir);
      const factsDir = path.join(hostDir, 'facts');
      writeFacts(factsDir, spec.facts ?? {});
      const hostKey = await keygen(path.join(hostDir, 'host_key'));
      const authorized = path.join(hostDir, 'authorized_keys');
      fs.writeFileSync(authorized, fs.readFileSync(`${spec.acceptsClientKey === false ? otherKey : clientKey}.pub`));
      const pidFile = path.join(hostDir, 'sshd.pid');
      const { port, sshd } = await onFreePort(async (port) => {
        const config = path.join(hostDir, 'sshd_config');
        fs.writeFileSync(config, sshdConfig({ port, hostKey, authorized, pidFile, factsDir }) + sshdOptions.map((o) => `${o}\n`).join(''));
        return startSshd(config, pidFile, path.join(hostDir, 'sshd.log'));
      });
      running.push(sshd);
      known.push(`[127.0.0.1]:${port} ${fs.readFileSync(`${hostKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}`);
      configHosts.push(`Host ${spec.name}\n  HostName 127.0.0.1\n  Port ${port}\n`);
      lab.set(spec.name, { name: spec.name, port, factsDir, pidFile: path.join(hostDir, 'sshd.pid') });
    }
    for (const name of closed) configHosts.push(`Host ${name}\n  HostName 127.0.0.1\n  Port ${await freePort()}\n`);
    const knownHosts = path.join(dir, 'known_hosts');
    fs.writeFileSync(knownHosts, known.join('\n') + '\n');
    const config = path.join(dir, 'ssh_config');
    fs.writeFileSync(
      config,
      configHosts.join('') +
        `Host *\n  User ${os.userInfo().username}\n  IdentityFile ${clientKey}\n  IdentitiesOnly yes\n  UserKnownHostsFile ${knownHosts}\n` +
        '  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  PasswordAuthentication no\n  KbdInteractiveAuthentication no\n',
    );
    return { dir, config, ssh: `ssh -F ${config}`, hosts: lab, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export function writeFacts(factsDir: string, facts: Record<string, string>): void {
  for (const [name, content] of Object.entries(facts)) {
    const file = path.join(factsDir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    fs.chmodSync(file, content.startsWith('#!') ? 0o755 : 0o644);
  }
  fs.mkdirSync(factsDir, { recursive: true });
}

function sshdConfig(o: { port: number; hostKey: string; authorized: string; pidFile: string; factsDir: string }): string {
  // The sessions find node where this test's node is, whatever the machine's default PATH.
  const sessionPath = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  return [
    `Port ${o.port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${o.hostKey}`,
    `PidFile ${o.pidFile}`,
    `AuthorizedKeysFile ${o.authorized}`,
    'StrictModes no',
    'UsePAM no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    `SetEnv GOVERN_FACTS_PATH=${o.factsDir} PATH=${sessionPath}`,
    '',
  ].join('\n');
}

async function keygen(file: string): Promise<string> {
  const r = await runCommand('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', path.basename(file), '-f', file], { timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return file;
}

/**
 * sshd binds a port of its own choosing only by its config, so the port is one the kernel gave a
 * moment ago and let go: another process may take it in between. sshd then fails to bind, and the
 * next free port is tried, a few times.
 */
async function onFreePort(start: (port: number) => Promise<Running>): Promise<{ port: number; sshd: Running }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, sshd: await start(port) };
    } catch (e) {
      if (attempt === 5 || !(e instanceof PortTaken)) throw e;
    }
  }
}

class PortTaken extends Error {}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts sshd and waits until it has bound its port (it writes the PID file after binding). */
async function startSshd(config: string, pidFile: string, logFile: string): Promise<Running> {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', () => {
      gone = true;
      resolve();
    });
    child.on('error', () => {
      gone = true;
      resolve();
    });
  });
  const deadline = Date.now() + 15_000;
  while (!fs.existsSync(pidFile)) {
    if (gone || Date.now() > deadline) {
      killGroup(child);
      await exited;
      const output = fs.readFileSync(logFile, 'utf8').trim();
      fs.truncateSync(logFile);
      throw new (/Address already in use/.test(output) ? PortTaken : Error)(`sshd did not start: ${output || 'no output'}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, exited };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}
