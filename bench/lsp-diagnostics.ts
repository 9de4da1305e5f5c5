// How long `govern lsp` takes, warm, from a one-character change of a file of a 1,000-resource tree
// to that text's diagnostics (issue 43's target: under 300 ms). A change alternates between a typo
// (`ensure = "presen"`, one diagnostic) and its fix (none), so that each round's diagnostics are
// new. Each round is paired with `govern check` of the same tree as a whole process (what a user
// without the server runs after each edit), the order alternating; the ratio of each pair is taken,
// so that the machine's drift between pairs cancels. CPU time is counted beside wall time (the
// server's from /proc, check's as a waited-for child), and the load average before and after.
// --cpu-prof DIR has the server write a V8 CPU profile there when it exits (node --cpu-prof);
// --govern FILE measures another build (another checkout's bin/govern: the commit before a change).
//
//   node dist/bench/lsp-diagnostics.js [--resources 1000] [--rounds 21] [--root /tmp/govern-bench-lsp] [--cpu-prof DIR] [--govern FILE]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LspClient } from '../test/support/lsp-client.js';
import { median, min, max } from './lib/stats.js';
import { cpuSeconds, GOVERN } from './lib/system.js';

const { values } = parseArgs({ options: { resources: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '21' }, root: { type: 'string', default: '/tmp/govern-bench-lsp' }, 'cpu-prof': { type: 'string' }, govern: { type: 'string', default: GOVERN } } });
const govern = path.resolve(values.govern!);
const resources = Number(values.resources);
const rounds = Number(values.rounds);
const FILES = 10;

/** The tree: FILES state files of file resources, each after the first, all formatted and valid. */
function writeTree(root: string): string[] {
  fs.rmSync(root, { recursive: true, force: true });
  const tree = path.join(root, 'tree');
  fs.mkdirSync(tree, { recursive: true });
  const files: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const blocks: string[] = [];
    for (let i = 0; i < resources / FILES; i++) {
      const name = `${root}/out/f${f}-${i}`;
      const after = f === 0 && i === 0 ? '' : `  after    = ["file:${root}/out/f0-0"]\n`;
      blocks.push(`file "${name}" {\n  ensure   = "present"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  contents = "{{fact "hostname"}} ${i}\\n"\n${after}}\n`);
    }
    const file = path.join(tree, `site${String(f).padStart(2, '0')}.hcl`);
    fs.writeFileSync(file, blocks.join('\n'));
    files.push(file);
  }
  return files;
}

/** govern started by node --cpu-prof (which NODE_OPTIONS may not carry), exec'd so that the pid stays the server's. */
function profiled(dir: string): string {
  const wrapper = path.join(values.root!, 'govern-profiled');
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --cpu-prof --cpu-prof-dir=${JSON.stringify(path.resolve(dir))} ${JSON.stringify(govern)} "$@"\n`, { mode: 0o755 });
  return wrapper;
}

async function main(): Promise<void> {
  const files = writeTree(values.root!);
  const tree = path.dirname(files[0]);
  const env = { GOVERN_CACHE_DIR: path.join(values.root!, 'cache') };
  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const client = await LspClient.start(values['cpu-prof'] ? profiled(values['cpu-prof']) : govern, tree, [], env);
  const server = client.child.pid!;
  const file = files[FILES - 1];
  const text = fs.readFileSync(file, 'utf8');
  const typo = text.replace('ensure   = "present"', 'ensure   = "presen"');
  let next = client.nextDiagnostics(file);
  await client.open(file, text);
  await next;
  const lsp: number[] = [];
  const check: number[] = [];
  const ratios: number[] = [];
  const lspCpu: number[] = [];
  const checkCpu: number[] = [];
  const runCheck = () => {
    const cpu = cpuSeconds('self');
    const start = process.hrtime.bigint();
    const r = spawnSync(govern, ['check', tree], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`govern check: exit ${r.status}: ${r.stdout}${r.stderr}`);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    checkCpu.push((cpuSeconds('self') - cpu) * 1000);
    return ms;
  };
  const change = async (k: number) => {
    const broken = k % 2 === 0;
    next = client.nextDiagnostics(file);
    const cpu = cpuSeconds(server);
    const start = process.hrtime.bigint();
    await client.change(file, broken ? typo : text);
    const found = await next;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    lspCpu.push((cpuSeconds(server) - cpu) * 1000);
    if (found.length !== (broken ? 1 : 0)) throw new Error(`round ${k}: ${found.length} diagnostics: ${JSON.stringify(found)}`);
    return ms;
  };
  // Warm-up: the server's first checks compile its code; they are not counted.
  for (let k = 0; k < 4; k++) await change(k);
  runCheck();
  lspCpu.length = 0;
  checkCpu.length = 0;
  for (let k = 0; k < rounds; k++) {
    let a: number;
    let b: number;
    if (k % 2 === 0) {
      a = await change(k);
      b = runCheck();
    } else {
      b = runCheck();
      a = await change(k);
    }
    lsp.push(a);
    check.push(b);
    ratios.push(a / b);
  }
  await client.stop();
  const row = (name: string, xs: number[], unit: (x: number) => string) => `| ${name} | ${unit(min(xs))} | ${unit(median(xs))} | ${unit(max(xs))} |`;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  process.stdout.write(
    [
      `${resources} resources in ${FILES} files, ${rounds} pairs (one-character change; node ${process.version}; load average ${loadBefore} before, ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} after)`,
      '',
      '| | min | median | max |',
      '|---|---:|---:|---:|',
      row('govern lsp, change to diagnostics (warm)', lsp, ms),
      row('govern check, whole process', check, ms),
      row('ratio lsp / check, per pair', ratios, (x) => x.toFixed(2)),
      row('govern lsp, CPU time of the server', lspCpu, ms),
      row('govern check, CPU time', checkCpu, ms),
      '',
    ].join('\n'),
  );
}

main().catch((e: Error) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
});
