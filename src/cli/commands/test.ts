// `govern test [--facts FILE|DIR] [--host NAME] [--keep] [--junit FILE] [--json] [PATH]`: the tree run
// as noop, for real and for real again in a throwaway sandbox of this host, and checked
// (src/test-run/, docs/test.md).
import fs from 'node:fs';
import path from 'node:path';
import { defaultStateTree } from '../../config/paths.js';
import { out } from '../../output/writers.js';
import { writeFileAtomic } from '../../shared/atomic-file.js';
import { UserError } from '../../shared/errors.js';
import { hostText, summaryText, testJson, testJunit } from '../../test-run/report.js';
import { makeBase } from '../../test-run/make-base.js';
import type { Driver } from '../../test-run/nspawn.js';
import { testHosts } from '../../test-run/test-hosts.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { described } from '../command-names.js';
import { defineCommand, theOperand, treeOperand } from '../command.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const testCommand = defineCommand({
  ...described('test'),
  details:
    'For each host, in a sandbox of this host (an overlay of its files in private mount, PID, IPC, UTS and\n' +
    'network namespaces): a --noop run, a real run, a second real run, then the checks of tests/*.hcl.\n' +
    'It fails, naming the resources, when a run fails, when the second run changes anything, when the noop\n' +
    "predicted otherwise than the run did, or when a check fails. Nothing of the host changes.\n" +
    'Exit status: 0 passed, 1 failed, 2 the sandbox could not be made (not root, no unshare).\n' +
    `Without PATH, the state tree govern run applies without one: ${defaultStateTree()}.`,
  options: optionTable([
    { name: 'facts', kind: 'text', placeholder: 'FILE|DIR', help: 'test with the facts of a govern facts --json snapshot, or of each HOST.json of a directory' },
    { name: 'host', kind: 'text', placeholder: 'NAME', help: 'test only the host whose snapshot is NAME.json in --facts DIR' },
    { name: 'keep', kind: 'flag', help: 'keep the files each sandbox changed, and print where' },
    { name: 'junit', kind: 'text', placeholder: 'FILE', help: 'also write the result as JUnit XML to FILE' },
    {
      name: 'network',
      kind: 'choice',
      placeholder: 'NET',
      choices: ['loopback', 'host'],
      default: 'loopback',
      help: "loopback: the sandbox's own network, loopback only; host: the host's network (package installs from a mirror need it)",
    },
    {
      name: 'driver',
      kind: 'choice',
      placeholder: 'DRIVER',
      choices: ['unshare', 'nspawn'],
      default: 'unshare',
      help: 'unshare: private namespaces, no systemd inside; nspawn: a container booted by systemd-nspawn (not on hosts without systemd as init)',
    },
    { name: 'base', kind: 'text', placeholder: 'DIR', help: "run the sandbox over the root file system DIR (a debootstrapped Debian) instead of the host's" },
    { name: 'make-base', kind: 'text', placeholder: 'SUITE', help: 'instead of testing: make a root for --base in the directory given, with debootstrap (debian:12; reused when it is there)' },
    { name: 'identity', kind: 'text', placeholder: 'FILE', help: "decrypt the tree's secrets in the runs with this age identity or SSH private key (as govern run --identity)" },
    { name: 'json', kind: 'flag', help: 'print the result as a JSON document' },
    ...helpOptions,
  ]),
  async run(o, operands) {
    if (o.makeBase !== undefined) {
      const made = await makeBase(o.makeBase, theOperand(operands, 'govern test --make-base debian:12 DIR', 'DIR'), process.env);
      if (made.exit === 0) await out(terminalLine(made.message) + '\n');
      else process.stderr.write(`govern test: ${terminalLine(made.message)}\n`);
      return made.exit;
    }
    // Said before any sandbox: a report that cannot be written would otherwise be known only after every run.
    if (o.junit !== undefined) junitDirectory(o.junit);
    const started = Date.now();
    const outcome = await testHosts({
      target: treeOperand(operands, this.usage),
      facts: o.facts,
      host: o.host,
      keep: o.keep,
      network: o.network as 'loopback' | 'host',
      base: o.base,
      driver: o.driver as Driver,
      identity: o.identity,
      env: process.env,
      onHost: o.json ? undefined : (v) => void out(hostText(v)),
    });
    await out(o.json ? testJson(outcome.hosts) : summaryText(outcome.hosts, (Date.now() - started) / 1000));
    if (o.junit !== undefined) {
      try {
        writeFileAtomic(o.junit, testJunit(outcome.hosts));
      } catch (e) {
        throw new UserError(`cannot write the JUnit report ${o.junit}: ${(e as Error).message}`);
      }
    }
    return outcome.exit;
  },
});

function junitDirectory(file: string): void {
  const dir = path.dirname(path.resolve(file));
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UserError(`--junit ${file}: ${dir} is not a directory`);
}
