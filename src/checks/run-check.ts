// Running one check of a kind in checks/kinds.ts, for govern test (inside its sandbox) and for a
// run's health checks. Commands run without a shell except a command check's own text, which is the
// user's shell command (as exec's command is); names were validated when the checks were read.
import fs from 'node:fs';
import type * as Http from 'node:http';
import { describeFailure, lastLines, runCommand } from '../shared/process.js';
import type { Check } from './kinds.js';

const CHECK_TIMEOUT_MS = 60_000;
const URL_TIMEOUT_MS = 10_000;

export type Outcome = { passed: boolean; message: string };

/** One attempt at a check: passed or failed, with what it saw. */
export async function runCheck(c: Check, given?: number): Promise<Outcome> {
  const k = c.keys;
  const timeoutMs = given ?? CHECK_TIMEOUT_MS;
  switch (c.kind) {
    case 'command':
      return commandCheck(k.command as string, k.user as string | undefined, timeoutMs);
    case 'file':
      return fileCheck(k.file as string, k.contains as string | undefined, k.mode as string | undefined);
    case 'port':
      return portCheck(k.port as number);
    case 'service':
      return exitCheck('/usr/sbin/service', [k.service as string, 'status'], `service ${k.service as string}`, timeoutMs);
    case 'package':
      return packageCheck(k.package as string, k.version as string | undefined, timeoutMs);
    case 'url':
      return urlCheck(k.url as string, (k.status as number | undefined) ?? 200, given ?? URL_TIMEOUT_MS);
  }
}

async function commandCheck(command: string, user: string | undefined, timeoutMs: number): Promise<Outcome> {
  const argv = user === undefined ? ['/bin/sh', '-c', command] : ['/usr/sbin/runuser', '-u', user, '--', '/bin/sh', '-c', command];
  return exitCheck(argv[0], argv.slice(1), user === undefined ? 'the command' : `the command, as ${user}`, timeoutMs);
}

async function exitCheck(program: string, args: string[], what: string, timeoutMs: number): Promise<Outcome> {
  const r = await runCommand(program, args, { timeoutMs, headAndTail: 4096 });
  if (r.code === 0) return { passed: true, message: `${what} exited 0` };
  const output = lastLines(`${r.stdout}${r.stderr}`.trim(), 3);
  return { passed: false, message: `${what} failed (${describeFailure(r, timeoutMs)})${output ? `: ${output}` : ''}` };
}

function fileCheck(file: string, contains: string | undefined, mode: string | undefined): Outcome {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    return { passed: false, message: `${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}` };
  }
  if (mode !== undefined && (st.mode & 0o7777) !== parseInt(mode, 8)) {
    return { passed: false, message: `${file} has mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}, not ${mode.padStart(4, '0')}` };
  }
  if (contains !== undefined) {
    if (!st.isFile()) return { passed: false, message: `${file} is not a regular file, so it contains no text` };
    if (st.size > 64 * 1024 * 1024) return { passed: false, message: `${file} is larger than the 64 MiB a file check reads` };
    if (!fs.readFileSync(file, 'utf8').includes(contains)) return { passed: false, message: `${file} does not contain ${JSON.stringify(contains)}` };
  }
  return { passed: true, message: `${file} exists${mode !== undefined ? ` with mode ${mode}` : ''}${contains !== undefined ? ' and contains the text' : ''}` };
}

/** A TCP socket listening on the port, IPv4 or IPv6, in the sandbox's network namespace. */
function portCheck(port: number): Outcome {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 3 && fields[3] === '0A' && fields[1].endsWith(`:${hex}`)) return { passed: true, message: `TCP port ${port} listens` };
    }
  }
  return { passed: false, message: `nothing listens on TCP port ${port}` };
}

async function packageCheck(name: string, version: string | undefined, timeoutMs: number): Promise<Outcome> {
  const r = await runCommand('dpkg-query', ['-W', '-f', '${Status}\t${Version}', '--', name], { timeoutMs });
  const [status, installed] = r.code === 0 ? r.stdout.split('\t') : ['', ''];
  if (!status.endsWith(' installed')) return { passed: false, message: `package ${name} is not installed` };
  if (version !== undefined && installed !== version) return { passed: false, message: `package ${name} is at version ${installed}, not ${version}` };
  return { passed: true, message: `package ${name} ${installed} is installed` };
}

function urlCheck(url: string, status: number, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    // Loaded here, at a url check: node:http and node:https (with tls) cost every run's start about
    // 10 ms of CPU, and most runs have no url check (bench/README.md, "Round six").
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const client = require(url.startsWith('https:') ? 'node:https' : 'node:http') as typeof Http;
    const request = client.get(url, { timeout: timeoutMs }, (response) => {
      response.resume();
      const got = response.statusCode ?? 0;
      resolve(got === status ? { passed: true, message: `${url} answered ${got}` } : { passed: false, message: `${url} answered ${got}, not ${status}` });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000}s`)));
    request.on('error', (e) => resolve({ passed: false, message: `${url}: ${e.message}` }));
  });
}
