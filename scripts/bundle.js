#!/usr/bin/env node
// Bundles what tsc built into dist/src: the core (dist/bundle/govern.js), each
// built-in runner (dist/bundle/runner-NAME.js) and the process that serves them together in persistent
// mode (runner-host.js, src/runners/host), one file each with its source map. bin/govern and runners/* load
// these: a process that reads one file instead of 30 to 110 modules starts faster and holds less
// memory (bench/README.md, "Round two, the last levers"). dist/src stays: the runner kit
// (`govern/runner`) and the manual generator are loaded from it.
// usage: scripts/bundle.js (run by `make build`, after tsc)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const built = path.join(root, 'dist', 'src');
const out = path.join(root, 'dist', 'bundle');

// The built-in runners from their registry (src/runners/registry.ts), and the host that serves them.
const { BUILT_IN_RUNNERS } = require(path.join(built, 'runners', 'registry.js'));
const entries = { govern: path.join(built, 'cli', 'main.js') };
for (const runner of [...BUILT_IN_RUNNERS, 'host']) entries[`runner-${runner}`] = path.join(built, 'runners', runner, 'main.js');

fs.rmSync(out, { recursive: true, force: true });
esbuild
  .build({
    entryPoints: entries,
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
  })
  .catch(() => process.exit(1));
