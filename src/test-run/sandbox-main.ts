// The sandbox's program (dist/bundle/sandbox.js), in two stages: `enter SPEC`, started by unshare in
// the new namespaces, makes the sandbox's file system and starts `inside SPEC` chrooted into it;
// when `enter` ends, the PID namespace ends, and every process the runs started with it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describeFailure, lastLines, runCommand } from '../shared/process.js';
import { runInside } from './inside.js';
import { keepChanges, makeSandboxRoot, SandboxError } from './sandbox-mounts.js';
import { NO_SANDBOX_EXIT, sandboxProgram, workFiles, type SandboxSpec } from './spec.js';


/**
 * What namespaces cannot keep from the host's kernel, taken from every process of the sandbox: loading
 * modules, setting the clock, the kernel log, raw I/O (docs/test.md, "What the sandbox cannot isolate").
 */
const DROPPED_CAPABILITIES = ['sys_module', 'sys_time', 'syslog', 'sys_rawio', 'wake_alarm'];

function chrooted(root: string, spec: SandboxSpec, specFile: string): Promise<number> {
  return new Promise((resolve) => {
    const bounding = DROPPED_CAPABILITIES.map((c) => `-${c}`).join(',');
    const argv = ['--bounding-set', bounding, '--', 'chroot', root, spec.node, sandboxProgram(spec.governRoot), 'inside', specFile];
    const child = spawn('setpriv', argv, { stdio: 'inherit', cwd: '/' });
    child.on('error', (e) => (process.stderr.write(`govern test: cannot start setpriv: ${e.message}\n`), resolve(NO_SANDBOX_EXIT)));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function enter(specFile: string): Promise<number> {
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8')) as SandboxSpec;
  let sandbox;
  try {
    sandbox = await makeSandboxRoot(spec);
  } catch (e) {
    process.stderr.write(`govern test: cannot make the sandbox: ${(e as Error).message}\n`);
    return NO_SANDBOX_EXIT;
  }
  if (spec.base !== undefined) {
    // The host's Node.js must run over the base (its libraries are shown, but a base's older libc is not).
    const r = await runCommand('chroot', [sandbox.root, spec.node, '-e', '0'], { timeoutMs: 60_000 });
    if (r.code !== 0) {
      process.stderr.write(`govern test: cannot make the sandbox: ${spec.node} does not run over the base ${spec.base}: ${lastLines((r.stderr || describeFailure(r)).trim(), 3)}\n`);
      return NO_SANDBOX_EXIT;
    }
  }
  const code = await chrooted(sandbox.root, spec, specFile);
  if (spec.keep) {
    try {
      await keepChanges(sandbox, workFiles(spec.work).changed);
    } catch (e) {
      if (!(e instanceof SandboxError)) throw e;
      process.stderr.write(`govern test: ${e.message}\n`);
      return 1;
    }
  }
  return code;
}

async function main(argv: string[]): Promise<number> {
  const [stage, specFile] = argv;
  if (stage === 'enter' && specFile !== undefined) return enter(specFile);
  if (stage === 'inside' && specFile !== undefined) {
    await runInside(JSON.parse(fs.readFileSync(specFile, 'utf8')) as SandboxSpec);
    return 0;
  }
  process.stderr.write('usage: sandbox.js enter|inside SPEC (started by govern test, not by hand)\n');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`govern test: the sandbox failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(NO_SANDBOX_EXIT);
  },
);
