#!/usr/bin/env node
// The HCL parsers govern could use, measured on govern's own corpus (docs/hcl.md has the table):
// cold start (load + the first parse, in a fresh process), throughput on the bench's state trees,
// peak memory, and the errors each gives for the malformed inputs the tests hold.
//
//   npm install --prefix DIR @cdktn/hcl2json@0.24.0 web-tree-sitter@0.25.10 @tree-sitter-grammars/tree-sitter-hcl@1.2.0
//   node bench/hcl-candidates.js --modules DIR/node_modules --corpus /tmp/govern-bench/plan-10000/policy [--task all|cold|speed|errors]
//
// govern's own parser and @cdktf/hcl2json come from this checkout (`make build` first). A task runs
// each candidate in a fresh process of its own (--one CANDIDATE TASK), so that one's memory and
// warm code do not count for another.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { values: opts } = parseArgs({
  options: {
    modules: { type: 'string', default: '/tmp/hcl-cand/node_modules' },
    corpus: { type: 'string', default: '/tmp/govern-bench/plan-10000/policy' },
    task: { type: 'string', default: 'all' },
    one: { type: 'string' },
    rounds: { type: 'string', default: '5' },
  },
  allowPositionals: true,
});
const REPO = path.join(__dirname, '..');
const CANDIDATES = ['govern', 'cdktf-hcl2json', 'cdktn-hcl2json', 'tree-sitter-hcl'];

/** Each candidate as one function: text in, something parsed out (or a thrown error). */
async function load(name) {
  const req = (m) => require(path.join(opts.modules, m));
  if (name === 'govern') {
    const { parseHcl } = require(path.join(REPO, 'dist/src/hcl/parse.js'));
    return async (file, text) => parseHcl(file, text);
  }
  if (name === 'cdktf-hcl2json') {
    const h = require(path.join(REPO, 'node_modules/@cdktf/hcl2json'));
    return (file, text) => h.parse(file, text);
  }
  if (name === 'cdktn-hcl2json') {
    const h = req('@cdktn/hcl2json');
    return (file, text) => h.parse(file, text);
  }
  const { Parser, Language } = req('web-tree-sitter/tree-sitter.cjs');
  await Parser.init();
  const parser = new Parser();
  parser.setLanguage(await Language.load(path.join(opts.modules, '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm')));
  return async (_file, text) => {
    const tree = parser.parse(text);
    const errors = [];
    const walk = (node) => {
      if (errors.length >= 20) return;
      if (node.isError || node.isMissing) errors.push(`${node.startPosition.row + 1}:${node.startPosition.column + 1}: ${node.isMissing ? 'missing ' + node.type : 'syntax error'}`);
      else if (node.hasError) for (const child of node.children) walk(child);
    };
    walk(tree.rootNode);
    tree.delete();
    if (errors.length) throw new Error(errors.join('; '));
    return true;
  };
}

function corpus() {
  return fs
    .readdirSync(opts.corpus)
    .filter((f) => f.endsWith('.hcl'))
    .sort()
    .map((f) => ({ file: f, text: fs.readFileSync(path.join(opts.corpus, f), 'utf8').replace(/\{\{fact "hostname"\}\}/g, 'host') }));
}

const MALFORMED = {
  'stray quote': 'x "a" {\n  v = "one"\n  w = "two""\n  y = "three"\n}\nx "b" {\n  z = "four"\n}\n',
  'unclosed string': 'x "a" {\n  v = "open\n  w = 1\n}\n',
  'bare word': 'file "/x" {\n  ensure = directory\n}\n',
  interpolation: 'x "a" {\n  v = "${var.x}"\n}\n',
  'missing value': 'x "a" {\n  v =\n}\n',
  'nested 2,000': `x "a" {\n  m = ${'{ a = '.repeat(2000)}1${' }'.repeat(2000)}\n}\n`,
};

async function one(name, task) {
  const t0 = process.hrtime.bigint();
  const parse = await load(name);
  if (task === 'cold') {
    await parse('a.hcl', 'x "a" {\n  v = "one"\n}\n');
    return { coldMs: Number(process.hrtime.bigint() - t0) / 1e6 };
  }
  if (task === 'speed') {
    const texts = corpus();
    const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t.text), 0);
    const times = [];
    for (let r = 0; r < Number(opts.rounds); r++) {
      const t = process.hrtime.bigint();
      for (const { file, text } of texts) await parse(file, text);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const first = times[0];
    const best = times.slice(1).sort((a, b) => a - b)[Math.floor((times.length - 1) / 2)] ?? first;
    return { bytes, firstMs: first, medianMs: best, mbPerS: bytes / 1e6 / (best / 1000), peakRssMiB: process.resourceUsage().maxRSS / 1024 };
  }
  const out = {};
  for (const [what, text] of Object.entries(MALFORMED)) {
    try {
      const r = await parse('f.hcl', text);
      out[what] = r === true ? 'accepted' : `accepted: ${JSON.stringify(r).slice(0, 120)}`;
    } catch (e) {
      const message = String(e?.message ?? e);
      out[what] = message.length > 400 ? message.slice(0, 400) + '...' : message;
    }
  }
  return out;
}

async function main() {
  if (opts.one) {
    const [name, task] = [opts.one, process.argv[process.argv.length - 1]];
    process.stdout.write(JSON.stringify(await one(name, task)) + '\n');
    return;
  }
  const tasks = opts.task === 'all' ? ['cold', 'speed', 'errors'] : [opts.task];
  for (const task of tasks) {
    for (const name of CANDIDATES) {
      const runs = task === 'cold' ? Number(opts.rounds) : 1;
      const results = [];
      for (let r = 0; r < runs; r++) {
        const args = [__filename, '--modules', opts.modules, '--corpus', opts.corpus, '--rounds', opts.rounds, '--one', name, task];
        results.push(JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 })));
      }
      if (task === 'cold') {
        const sorted = results.map((r) => r.coldMs).sort((a, b) => a - b);
        console.log(`${task}\t${name}\tmedian ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms\t(min ${sorted[0].toFixed(1)}, max ${sorted[sorted.length - 1].toFixed(1)})`);
      } else console.log(`${task}\t${name}\t${JSON.stringify(results[0])}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
