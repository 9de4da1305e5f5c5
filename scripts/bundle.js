#!/usr/bin/env node
// Bundles what tsc built into dist/src: the core (dist/bundle/govern.js), each built-in runner
// (dist/bundle/runner-NAME.js), the command index for `govern --help` (usage.js) and the process that
// serves the runners together in persistent mode (runner-host.js, src/runners/host), one file each
// with its source map. bin/govern and runners/* load
// these: a process that reads one file instead of 30 to 110 modules starts faster and holds less
// memory (bench/README.md, "Round two, the last levers"). The libraries only some commands use (the
// NATS client, yaml, Handlebars, jsonc-parser, the TOML library) are files of their own, vendor-NAME.js, which a bundle reads
// when its code first requires the library: a command compiles only what it may run (bench/README.md,
// "Start-up, round three"). dist/src stays: the runner kit (`govern/runner`) and the manual generator
// are loaded from it.
// usage: scripts/bundle.js (run by `make build`, after tsc)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const built = path.join(root, 'dist', 'src');
const out = path.join(root, 'dist', 'bundle');

/** Each vendor file and the packages it holds: the NATS packages share one, as they share nats-core. */
const VENDORED = {
  nats: ['@nats-io/transport-node', '@nats-io/jetstream', '@nats-io/kv', '@nats-io/nkeys'],
  yaml: ['yaml'],
  handlebars: ['handlebars'],
  // Its parser alone: a straight template (most state files) is rendered without the compiler.
  'handlebars-parser': ['handlebars/dist/cjs/handlebars/compiler/base'],
  // The structured-document runners' libraries: loaded by the json and toml runners alone.
  jsonc: ['jsonc-parser'],
  toml: ['@decimalturn/toml-patch'],
  // The language server's library: `govern lsp` alone loads it (src/lsp/server.ts).
  lsp: ['vscode-languageserver/node', 'vscode-languageserver-textdocument'],
};
const vendorOf = new Map(Object.entries(VENDORED).flatMap(([file, packages]) => packages.map((p) => [p, file])));

// The built-in runners from their registry (src/runners/registry.ts), and the host that serves them.
const { BUILT_IN_RUNNERS } = require(path.join(built, 'runners', 'registry.js'));
const entries = { govern: path.join(built, 'cli', 'main.js'), start: path.join(built, 'cli', 'start.js') };
// The sandbox of govern test (src/test-run/sandbox-main.ts), started by unshare and then chroot.
entries.sandbox = path.join(built, 'test-run', 'sandbox-main.js');
for (const runner of [...BUILT_IN_RUNNERS, 'host']) entries[`runner-${runner}`] = path.join(built, 'runners', runner, 'main.js');

const common = {
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18.20',
  // The map names dist/src's files, which ship beside the bundle: stack traces are mapped with
  // NODE_OPTIONS=--enable-source-maps (docs/packaging.md); reading the map at every start costs more.
  sourcemap: 'linked',
  sourcesContent: false,
  // Every start reads and keeps the whole text of its bundle: without the whitespace the core is a
  // quarter smaller, in the peak memory of every run (bench/README.md, "Round eight"). Names are kept.
  minifyWhitespace: true,
  logLevel: 'warning',
};

/** A vendor file: an object of its packages' exports, by package name. */
const vendorEntries = {
  name: 'vendor-entries',
  setup(build) {
    build.onResolve({ filter: /^vendor:/ }, (a) => ({ path: a.path.slice('vendor:'.length), namespace: 'vendor' }));
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, (a) => ({
      resolveDir: root,
      contents: `module.exports = {${VENDORED[a.path].map((p) => `${JSON.stringify(p)}: require(${JSON.stringify(p)})`).join(', ')}};`,
    }));
  },
};

/**
 * Handlebars without the source-map package: its compiler builds every template's code from that
 * package's SourceNode when it finds it, and from strings when not. govern never asks for a map
 * (errors carry the template's lines), and the strings take half the time and memory for a large
 * template (docs/security.md, "Counts and sizes").
 */
const noSourceMap = {
  name: 'no-source-map',
  setup(build) {
    build.onResolve({ filter: /^source-map$/ }, (a) => (/[\\/]handlebars[\\/]/.test(a.importer) ? { path: 'source-map', namespace: 'no-source-map' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'no-source-map' }, () => ({ contents: 'module.exports = {};' }));
  },
};

/** In the core and the runners, a vendored package is its vendor file, required when first used. */
const vendorRequires = {
  name: 'vendor-requires',
  setup(build) {
    build.onResolve({ filter: /^[@a-z]/ }, (a) => (vendorOf.has(a.path) && a.namespace === 'file' ? { path: a.path, namespace: 'vendored' } : undefined));
    build.onResolve({ filter: /^\.\/vendor-/, namespace: 'vendored' }, (a) => ({ path: a.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'vendored' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(`./vendor-${vendorOf.get(a.path)}.js`)})[${JSON.stringify(a.path)}];`,
    }));
  },
};

/**
 * `govern --help` from the command index alone: each entry's `load()` names its command's module,
 * which this bundle leaves out (bin/govern never calls `load()` through it; the core does).
 */
const indexOnly = {
  name: 'index-only',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\// }, (a) => ({ path: a.path, external: true }));
  },
};

/**
 * The report schema's validator as code (ajv's standalone output), beside record/report-check.js
 * which requires it: `govern status` then neither loads ajv nor compiles the schema. In the bundles
 * it is a file of its own, dist/bundle/report-validator.js, beside the core: only `govern status`
 * reads it, so no other command compiles its 40 KB.
 */
const validatorApart = {
  name: 'validator-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/report-validator\.js$/ }, (a) => (a.namespace === 'file' ? { path: './report-validator.js', external: true } : undefined));
  },
};

function reportValidator() {
  const Ajv = require('ajv').default;
  const standalone = require('ajv/dist/standalone').default;
  const { REPORT_SCHEMA } = require(path.join(built, 'report', 'schema.js'));
  const ajv = new Ajv({ allErrors: false, strict: true, code: { source: true, esm: false } });
  const code = standalone(ajv, ajv.compile(REPORT_SCHEMA));
  fs.writeFileSync(path.join(built, 'record', 'report-validator.js'), `// Generated by scripts/bundle.js from report/schema.js: do not edit.\n${code}\n`);
}

async function bundle() {
  reportValidator();
  fs.rmSync(out, { recursive: true, force: true });
  // jsonc-parser's main is a UMD build whose requires a bundler cannot follow: its ES module build instead.
  const alias = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };
  await esbuild.build({ ...common, alias, entryPoints: Object.fromEntries(Object.keys(VENDORED).map((f) => [`vendor-${f}`, `vendor:${f}`])), plugins: [vendorEntries, noSourceMap] });
  await esbuild.build({ ...common, entryPoints: entries, plugins: [vendorRequires, validatorApart] });
  await esbuild.build({ ...common, entryPoints: { 'report-validator': path.join(built, 'record', 'report-validator.js') } });
  await esbuild.build({ ...common, entryPoints: { usage: path.join(built, 'cli', 'usage.js') }, plugins: [indexOnly] });
}

bundle().catch(() => process.exit(1));
