// Writes the same workload of N resources for govern, puppet apply, ansible-playbook, cf-agent and
// the sh floor, under ROOT/<tool>/policy, each managing its own tree ROOT/<tool>/tree.
//
//   node dist/bench/generate.js [--n 100] [--root /tmp/govern-bench] [--tools govern,puppet,...]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_MARKER } from './lib/harness.js';
import { governHasRunner, governHostname, installedPackages } from './lib/system.js';
import { TOOLS, type ToolName } from './lib/tools.js';
import { buildWorkload, resourceCount, type Workload } from './lib/workload.js';
import { writeAnsible } from './lib/writers/ansible.js';
import { writeCfengine } from './lib/writers/cfengine.js';
import type { WrittenPolicy } from './lib/writers/common.js';
import { writeFloor } from './lib/writers/floor.js';
import { writeGovern } from './lib/writers/govern.js';
import { writeNodeFloor } from './lib/writers/node-floor.js';
import { writePuppet } from './lib/writers/puppet.js';


export const DEFAULT_ROOT = '/tmp/govern-bench';

export interface Generated {
  workload: Workload;
  hostname: string;
  /** Packages were left out because this checkout has no `pkg` runner. */
  packagesLeftOut: boolean;
  policies: Partial<Record<ToolName, WrittenPolicy>>;
}

export function toolDir(root: string, tool: ToolName): string {
  return path.join(root, tool);
}

export function treeOf(root: string, tool: ToolName): string {
  return path.join(toolDir(root, tool), 'tree');
}

export function policyDirOf(root: string, tool: ToolName): string {
  return path.join(toolDir(root, tool), 'policy');
}

export interface GenerateOptions {
  n: number;
  root: string;
  tools: readonly ToolName[];
  /** Packages at most as many as the host has installed; the rest of their share goes to files. */
  capPackages?: boolean;
}

export async function generate(options: GenerateOptions): Promise<Generated> {
  const packagesLeftOut = !governHasRunner('pkg');
  const workload = buildWorkload({ n: options.n, availablePackages: await installedPackages(), withoutPackages: packagesLeftOut, capPackages: options.capPackages });
  const hostname = await governHostname();
  const policies: Generated['policies'] = {};
  for (const tool of options.tools) {
    const target = { tree: treeOf(options.root, tool), policyDir: policyDirOf(options.root, tool) };
    fs.rmSync(target.policyDir, { recursive: true, force: true });
    const written = write(tool, workload, target, hostname);
    if (written.resources !== resourceCount(workload)) {
      throw new Error(`the ${tool} writer wrote ${written.resources} resources, the workload has ${resourceCount(workload)}`);
    }
    policies[tool] = written;
  }
  return { workload, hostname, packagesLeftOut, policies };
}

/** A govern state tree only, for measuring planning (`govern graph`) at large N. */
export async function generateGovernOnly(n: number, policyDir: string, tree: string): Promise<Workload> {
  const workload = buildWorkload({ n, availablePackages: await installedPackages(), withoutPackages: !governHasRunner('pkg') });
  fs.rmSync(policyDir, { recursive: true, force: true });
  writeGovern(workload, { tree, policyDir });
  return workload;
}

function write(tool: ToolName, w: Workload, target: { tree: string; policyDir: string }, hostname: string): WrittenPolicy {
  switch (tool) {
    case 'govern':
      return writeGovern(w, target);
    case 'puppet':
      return writePuppet(w, target);
    case 'ansible':
      return writeAnsible(w, target);
    case 'cfengine':
      return writeCfengine(w, target);
    case 'sh':
      return writeFloor(w, target, hostname);
    case 'node':
      return writeNodeFloor(w, target, hostname);
  }
}

export function parseTools(text: string): ToolName[] {
  const names = text.split(',').map((t) => t.trim()).filter(Boolean);
  for (const n of names) if (!(TOOLS as readonly string[]).includes(n)) throw new Error(`unknown tool "${n}" (known: ${TOOLS.join(', ')})`);
  return names as ToolName[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '100' },
      root: { type: 'string', default: DEFAULT_ROOT },
      tools: { type: 'string', default: TOOLS.join(',') },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: node dist/bench/generate.js [--n 100] [--root /tmp/govern-bench] [--tools govern,puppet,ansible,cfengine,sh,node]');
    return;
  }
  const g = await generate({ n: Number(values.n), root: values.root!, tools: parseTools(values.tools!) });
  fs.writeFileSync(path.join(values.root!, ROOT_MARKER), 'made by bench/generate.js; bench/run.js removes it\n');
  if (g.packagesLeftOut) console.error('warning: this checkout has no runners/pkg; packages are left out of every workload');
  for (const [tool, p] of Object.entries(g.policies)) console.log(`${tool.padEnd(9)} ${String(p.resources).padStart(6)} resources  ${p.entry}`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
