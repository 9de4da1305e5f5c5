#!/usr/bin/env node
// Bundles what tsc built into dist/src: the core (dist/bundle/govern.js), each
// built-in runner (dist/bundle/runner-NAME.js) and the process that serves them together in persistent
// mode (runner-host.js, src/runners/host), one file each with its source map. bin/govern and runners/* load
// these: a process that reads one file instead of 30 to 110 modules starts faster and holds less
// memory (bench/README.md, "Round two, the last levers"). The libraries only some commands use (the
// NATS client, yaml, ajv, Handlebars) are files of their own, vendor-NAME.js, which a bundle reads
// when its code first requires the library: a command compiles only what it may run (bench/README.md,
// "Round three"). dist/src stays: the runner kit (`govern/runner`) and the manual generator are loaded
// from it.
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
  ajv: ['ajv'],
  handlebars: ['handlebars'],
};
const vendorOf = new Map(Object.entries(VENDORED).flatMap(([file, packages]) => packages.map((p) => [p, file])));

const entries = { govern: path.join(built, 'cli', 'main.js'), start: path.join(built, 'cli', 'start.js') };
for (const runner of fs.readdirSync(path.join(built, 'runners'))) {
  const main = path.join(built, 'runners', runner, 'main.js');
  if (fs.existsSync(main)) entries[`runner-${runner}`] = main;
}

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

async function bundle() {
  fs.rmSync(out, { recursive: true, force: true });
  await esbuild.build({ ...common, entryPoints: Object.fromEntries(Object.keys(VENDORED).map((f) => [`vendor-${f}`, `vendor:${f}`])), plugins: [vendorEntries] });
  await esbuild.build({ ...common, entryPoints: entries, plugins: [vendorRequires] });
}

bundle().catch(() => process.exit(1));
