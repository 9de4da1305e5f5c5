// A command loads only the code it uses: `govern --help` the command index, a no-change run of a tree
// without data files, secrets or a fleet neither the NATS client, yaml, ajv nor age (bench/README.md,
// "Start-up, round three"). Read from the modules each process had loaded, in dist/src (each module by name)
// and in the bundles bin/govern runs (the vendor files scripts/bundle.js splits off).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN, ROOT, TEST_VAR_DIR } from '../support/cli.js';
import { modulesLoaded, modulesLoadedServing } from '../support/modules-loaded.js';
import { tempDir, writeFile } from '../support/tmp.js';

const SRC = path.join(ROOT, 'dist', 'src');
const BUNDLES = path.join(ROOT, 'dist', 'bundle');

/** govern's command line from dist/src, module by module, as the bundle holds it. */
function fromSource(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const dir = tempDir();
  const script = writeFile(path.join(dir, 'govern.js'), `require(${JSON.stringify(path.join(SRC, 'cli', 'main.js'))}).main(process.argv.slice(2));\n`);
  return modulesLoaded(script, args, env).filter((m) => m !== script);
}

/** A loaded file as a short name: `cli/main.js` in dist/src, `yaml` for a package, `bundle/NAME.js`. */
function shortName(file: string): string {
  if (file.startsWith(SRC + path.sep)) return path.relative(SRC, file);
  if (file.startsWith(BUNDLES + path.sep)) return `bundle/${path.basename(file)}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return pkg ? pkg[1] : file;
}

/** The language server and its library, which `govern lsp` alone loads. */
const LANGUAGE_SERVER = [/^vscode-/, /^lsp\//, /^bundle\/vendor-lsp\.js$/];

/** What no command that does not use them may load. */
const HEAVY = [/^@nats-io\//, /^yaml$/, /^ajv$/, /^tweetnacl$/, /^secrets\/age/, /^record\/report-check\.js$/, /^jsonc-parser$/, /^@decimalturn\/toml-patch$/, ...LANGUAGE_SERVER];

function heavyIn(loaded: string[]): string[] {
  return [...new Set(loaded.map(shortName))].filter((m) => HEAVY.some((h) => h.test(m)));
}

/** A tree as most hosts have it: files whose contents use a fact, and a guarded command. */
function plainTree(): string {
  const dir = tempDir();
  const state = path.join(dir, 'state');
  writeFile(
    path.join(state, 'site.hcl'),
    `file "${dir}/managed.conf" {\n  ensure = "present"\n  contents = "served_by = {{fact "hostname"}}\\n"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n` +
      `exec "touch" {\n  command = "/usr/bin/touch ${dir}/done"\n  creates = "${dir}/done"\n}\n`,
  );
  return state;
}

describe('what each command loads', () => {
  it('govern --help loads the command index and what parsing a command line needs, no command #once', () => {
    const loaded = fromSource(['--help']).map(shortName);
    expect(loaded.sort()).to.deep.equal(
      [
        'cli/command-index.js',
        'cli/command-names.js',
        'cli/main.js',
        'cli/options.js',
        'cli/usage.js',
        'config/paths.js',
        'facts/remote/command-line.js',
        'output/priority.js',
        'output/writers.js',
        'shared/bounded-output.js',
        'shared/child-guard.js',
        'shared/duration.js',
        'shared/errors.js',
        'shared/interrupt.js',
        'shared/process-group.js',
        'shared/process.js',
        'shared/pulled-paths.js',
        'shared/secret-texts.js',
        'shared/sensitive.js',
        'shared/shell-display.js',
        'shared/suggest.js',
        'shared/terminal-text.js',
      ].sort(),
    );
  });

  it('bin/govern --help reads the command index\'s bundle alone, not the core, and prints what the core would', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const bundles = modulesLoaded(GOVERN, args).filter((m) => m.startsWith(BUNDLES + path.sep));
      expect(bundles.map(shortName), args[0]).to.deep.equal(['bundle/usage.js']);
    }
    const fromCore = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(BUNDLES, 'govern.js'))}).main(['--help'])`], { encoding: 'utf8' });
    const fromIndex = spawnSync(GOVERN, ['--help'], { encoding: 'utf8' });
    expect(fromIndex.status).to.equal(0);
    expect(fromIndex.stdout).to.equal(fromCore.stdout).and.to.match(/^govern: configuration management/);
    // Anything else starts the core.
    expect(modulesLoaded(GOVERN, ['--version']).map(shortName)).to.include.members(['bundle/start.js', 'bundle/govern.js']);
  });

  it('a no-change run of a plain tree loads no fleet client, yaml, ajv or age', async () => {
    const state = plainTree();
    const env = { GOVERN_VAR_DIR: TEST_VAR_DIR };
    modulesLoaded(GOVERN, ['run', state], env); // the first run makes the changes
    const loaded = fromSource(['run', state], env);
    expect(loaded.map(shortName), 'the run itself was loaded').to.include.members(['cli/commands/run.js', 'apply/apply.js', 'templates/engine.js']);
    expect(heavyIn(loaded)).to.deep.equal([]);
    // Its state file's values are straight (`{{fact "hostname"}}`): Handlebars' parser, not its
    // compiler, and with the cache of the last run not even the parser.
    const bundles = (args: string[]) => modulesLoaded(GOVERN, args, env).filter((m) => m.startsWith(BUNDLES + path.sep)).map(shortName).sort();
    expect(bundles(['run', '--no-cache', state])).to.deep.equal(['bundle/govern.js', 'bundle/start.js', 'bundle/usage.js', 'bundle/vendor-handlebars-parser.js']);
    expect(bundles(['run', state])).to.deep.equal(['bundle/govern.js', 'bundle/start.js', 'bundle/usage.js']);
  });

  it('a state file with a block loads Handlebars\' compiler', () => {
    const state = plainTree();
    writeFile(path.join(state, 'more.hcl'), `{{#if true}}\nexec "again" {\n  command = "/usr/bin/true"\n  creates = "${state}"\n}\n{{/if}}\n`);
    const bundles = modulesLoaded(GOVERN, ['graph', state], { GOVERN_VAR_DIR: TEST_VAR_DIR }).filter((m) => m.startsWith(BUNDLES + path.sep));
    expect(bundles.map(shortName)).to.include('bundle/vendor-handlebars.js');
  });

  it('govern status loads the report check made at build time, and no ajv, fleet client or yaml', () => {
    const state = plainTree();
    const varDir = tempDir();
    modulesLoaded(GOVERN, ['run', state], { GOVERN_VAR_DIR: varDir });
    const files = fromSource(['status', '--var-dir', varDir]);
    const loaded = files.map(shortName);
    expect(loaded).to.include.members(['record/report-check.js', 'record/report-validator.js']);
    expect(heavyIn(loaded).filter((m) => m !== 'record/report-check.js' && m !== 'ajv')).to.deep.equal([]);
    // The validator made at build time needs a piece of ajv's runtime, not ajv.
    const ajv = files.filter((f) => f.includes(`${path.sep}node_modules${path.sep}ajv${path.sep}`));
    expect(ajv.map((f) => path.relative(path.join(ROOT, 'node_modules', 'ajv'), f))).to.deep.equal([path.join('dist', 'runtime', 'ucs2length.js')]);
    // In the bundles, the validator is a file of its own that only status reads.
    const bundles = modulesLoaded(GOVERN, ['status', '--var-dir', varDir]).filter((m) => m.startsWith(BUNDLES + path.sep));
    expect(bundles.map(shortName)).to.include('bundle/report-validator.js');
    expect(fs.readFileSync(path.join(BUNDLES, 'govern.js'), 'utf8'), 'the core holds no copy of the validator').not.to.contain('ucs2length');
  });

  it('the runner host loads a document library only for the runners that use it, and the TOML library only when a toml resource is applied #once', () => {
    const host = path.join(BUNDLES, 'runner-host.js');
    const vendors = (runners: string) =>
      modulesLoaded(host, [], { GOVERN_HOST_RUNNERS: runners })
        .filter((m) => m.startsWith(BUNDLES + path.sep) && path.basename(m).startsWith('vendor-'))
        .map(shortName)
        .sort();
    expect(vendors('file,exec,ini,block,line,download')).to.deep.equal([]);
    expect(vendors('json')).to.deep.equal(['bundle/vendor-jsonc.js']);
    expect(vendors('yaml,toml')).to.deep.equal(['bundle/vendor-yaml.js']);
  });

  it('the pkg runner loads the facts code only to answer os/family for its own govern', () => {
    const dir = tempDir();
    const script = writeFile(
      path.join(dir, 'pkg.js'),
      `const { osFamily } = require(${JSON.stringify(path.join(SRC, 'runners', 'pkg', 'providers.js'))});\n` +
        `const { providerContext } = require(${JSON.stringify(path.join(SRC, 'shared', 'command-runner.js'))});\n` +
        `if (process.argv[2] === 'ask') void osFamily(providerContext({ ...process.env, GOVERN: ${JSON.stringify(path.join(ROOT, 'bin', 'govern'))}, GOVERN_FACTS_PATH: ${JSON.stringify(dir)} }, () => undefined));\n`,
    );
    const facts = (args: string[]) => [...new Set(modulesLoaded(script, args).map(shortName))].filter((m) => m.startsWith('facts/')).sort();
    expect(facts([])).to.deep.equal([]);
    expect(facts(['ask'])).to.include('facts/env-fact.js').and.include('facts/local-facts.js');
  });

  it('a data file in YAML loads yaml, and only then', () => {
    const tree = tempDir();
    writeFile(path.join(tree, 'hierarchy.hcl'), 'levels = ["common"]\n');
    writeFile(path.join(tree, 'data', 'common.yaml'), 'greeting: hello\n');
    writeFile(path.join(tree, 'site.hcl'), `file "${tree}/greeting" {\n  ensure = "present"\n  contents = "{{data "greeting"}}\\n"\n  owner = "root"\n  group = "root"\n  mode = "0644"\n}\n`);
    const loaded = fromSource(['run', '--noop', tree], { GOVERN_VAR_DIR: TEST_VAR_DIR }).map(shortName);
    expect(heavyIn(loaded)).to.deep.equal(['yaml']);
  });

  it('govern lsp loads the language server and its library; govern check and govern fmt do not', async () => {
    const tree = plainTree();
    const server = (loaded: string[]) => [...new Set(loaded.map(shortName))].filter((m) => LANGUAGE_SERVER.some((h) => h.test(m)));
    for (const args of [['check', tree], ['fmt', tree]]) {
      expect(server(fromSource(args)), args[0]).to.deep.equal([]);
      expect(server(modulesLoaded(GOVERN, args)), `bin/govern ${args[0]}`).to.deep.equal([]);
    }
    // An editor's session: initialize, shutdown, exit (exit 0).
    const session = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } },
      { jsonrpc: '2.0', id: 2, method: 'shutdown' },
      { jsonrpc: '2.0', method: 'exit' },
    ].map((m) => `Content-Length: ${Buffer.byteLength(JSON.stringify(m))}\r\n\r\n${JSON.stringify(m)}`).join('');
    expect(server(await modulesLoadedServing(GOVERN, ['lsp'], session))).to.include.members(['bundle/vendor-lsp.js']);
    const script = writeFile(path.join(tempDir(), 'govern.js'), `require(${JSON.stringify(path.join(SRC, 'cli', 'main.js'))}).main(process.argv.slice(2));\n`);
    expect(server(await modulesLoadedServing(script, ['lsp'], session))).to.include.members(['vscode-languageserver', 'lsp/server.js']);
  });
});
