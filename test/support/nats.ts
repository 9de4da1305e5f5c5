// A real nats-server (Debian's package) for a test: JetStream on, 127.0.0.1, a port the server
// chooses, a fresh store directory; started and stopped by the test. Ready when the server says so
// on stderr, which also names the port it took.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NATS_SERVER = '/usr/sbin/nats-server';

export interface NatsServer {
  url: string;
  port: number;
  pid: number;
  dir: string;
  /** SIGSTOP: the server keeps its socket but answers nothing (a slow or hung server). */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/**
 * `config`: extra nats-server configuration (accounts, authorization...), in its own syntax.
 * `jetstream: false`: a server without it, as a site's leaf node relaying to the hub's.
 */
export async function startNats(config = '', o: { jetstream?: boolean } = {}): Promise<NatsServer> {
  // Its own directory, removed when the server stops: a server may outlive one test (tmp.ts removes
  // the tests' directories after each).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-nats-'));
  const store = path.join(dir, 'store');
  const file = path.join(dir, 'nats.conf');
  const jetstream = o.jetstream === false ? '' : `jetstream { store_dir: "${store}" }\n`;
  fs.writeFileSync(file, `listen: "127.0.0.1:-1"\n${jetstream}${config}\n`);
  const child = spawn(NATS_SERVER, ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await readyPort(child);
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    dir,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    stop: async () => {
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(server);
  return server;
}

function readyPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    let port: number | undefined;
    child.stderr!.setEncoding('utf8');
    const onData = (chunk: string) => {
      text += chunk;
      port ??= Number(/Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(text)?.[1]) || undefined;
      if (port !== undefined && text.includes('Server is ready')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume(); // keep draining: a full pipe would block the server's logging
        resolve(port);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`nats-server exited (${code}) before it was ready:\n${text}`)));
    child.once('error', reject);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
}

const running = new Set<NatsServer>();

/** Stops every server a test started and did not stop (mocha's root hook calls it). */
export async function stopAllNats(): Promise<void> {
  for (const server of running) await server.stop();
  running.clear();
}
