// The tree's checks run inside the sandbox after the second run (docs/test.md): each answers passed
// or failed with what it saw. Commands run without a shell except a command check's own text, which
// is the user's shell command (as exec's command is); names were validated when the checks were read.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { describeFailure, lastLines, runCommand } from '../shared/process.js';
import type { Check } from './checks.js';
import type { CheckResult } from './types.js';

const CHECK_TIMEOUT_MS = 60_000;
const URL_TIMEOUT_MS = 10_000;

export async function runChecks(checks: Check[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const c of checks) {
    const { passed, message } = await runCheck(c);
    results.push({ name: c.name, where: c.where, kind: c.kind, passed, message });
  }
  return results;
}

type Outcome = { passed: boolean; message: string };

async function runCheck(c: Check): Promise<Outcome> {
  const k = c.keys;
  switch (c.kind) {
    case 'command':
      return commandCheck(k.command as string, k.user as string | undefined);
    case 'file':
      return fileCheck(k.file as string, k.contains as string | undefined, k.mode as string | undefined);
    case 'port':
      return portCheck(k.port as number);
    case 'service':
      return exitCheck('/usr/sbin/service', [k.service as string, 'status'], `service ${k.service as string}`);
    case 'package':
      return packageCheck(k.package as string, k.version as string | undefined);
    case 'url':
      return urlCheck(k.url as string, (k.status as number | undefined) ?? 200);
  }
}

async function commandCheck(command: string, user: string | undefined): Promise<Outcome> {
  const argv = user === undefined ? ['/bin/sh', '-c', command] : ['/usr/sbin/runuser', '-u', user, '--', '/bin/sh', '-c', command];
  return exitCheck(argv[0], argv.slice(1), user === undefined ? 'the command' : `the command, as ${user}`);
}

async function exitCheck(program: string, args: string[], what: string): Promise<Outcome> {
  const r = await runCommand(program, args, { timeoutMs: CHECK_TIMEOUT_MS, headAndTail: 4096 });
  if (r.code === 0) return { passed: true, message: `${what} exited 0` };
  const output = lastLines(`${r.stdout}${r.stderr}`.trim(), 3);
  return { passed: false, message: `${what} failed (${describeFailure(r, CHECK_TIMEOUT_MS)})${output ? `: ${output}` : ''}` };
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

async function packageCheck(name: string, version: string | undefined): Promise<Outcome> {
  const r = await runCommand('dpkg-query', ['-W', '-f', '${Status}\t${Version}', '--', name], { timeoutMs: CHECK_TIMEOUT_MS });
  const [status, installed] = r.code === 0 ? r.stdout.split('\t') : ['', ''];
  if (!status.endsWith(' installed')) return { passed: false, message: `package ${name} is not installed` };
  if (version !== undefined && installed !== version) return { passed: false, message: `package ${name} is at version ${installed}, not ${version}` };
  return { passed: true, message: `package ${name} ${installed} is installed` };
}

function urlCheck(url: string, status: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const client = url.startsWith('https:') ? https : http;
    const request = client.get(url, { timeout: URL_TIMEOUT_MS }, (response) => {
      response.resume();
      const got = response.statusCode ?? 0;
      resolve(got === status ? { passed: true, message: `${url} answered ${got}` } : { passed: false, message: `${url} answered ${got}, not ${status}` });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${URL_TIMEOUT_MS / 1000}s`)));
    request.on('error', (e) => resolve({ passed: false, message: `${url}: ${e.message}` }));
  });
}
