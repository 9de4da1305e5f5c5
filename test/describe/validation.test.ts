// Every mistake caught before anything is applied, through `govern run` (and --noop, and graph) with
// the real runners: a valid resource first, a bad key, value or signal later; nothing may be applied.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern, RUNNERS_DIR, shRunner } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

interface Tree {
  dir: string;
  states: string;
  /** A file the first resource would create. */
  first: string;
  run(...extra: string[]): ReturnType<typeof govern>;
  graph(): ReturnType<typeof govern>;
}

/** A tree whose first resource creates a file, followed by `rest`; `{{first}}` in it names that file. */
function tree(rest: string, runnersDirs: string[] = []): Tree {
  const dir = tempDir('govern-kit-');
  const states = path.join(dir, 'states');
  const first = path.join(dir, 'first');
  const head = `file "${first}" {\n  ensure   = "present"\n  contents = "applied"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n}\n\n`;
  writeFile(path.join(states, 'a.hcl'), head + rest.replaceAll('{{first}}', first));
  const dirs = [...runnersDirs, RUNNERS_DIR].flatMap((d) => ['--runners-dir', d]);
  const env = { GOVERN_CACHE_DIR: path.join(dir, 'cache') };
  return {
    dir,
    states,
    first,
    run: (...extra) => govern(['run', states, ...dirs, ...extra], { env }),
    graph: () => govern(['graph', states, ...dirs], { env }),
  };
}

/** The line of a.hcl a tree's rest starts on (the first resource takes 8 lines). */
const REST = 9;

async function refused(t: Tree, expected: string[]): Promise<void> {
  const where = path.join(t.states, 'a.hcl');
  for (const args of [[], ['--noop'], ['--json']]) {
    const r = await t.run(...args);
    expect(r.code, `govern run ${args.join(' ')}: ${r.stdout}${r.stderr}`).to.equal(1);
    expect(r.stderr.trimEnd().split('\n')).to.deep.equal(expected.map((line) => `govern: ${where}:${line}`));
    expect(fs.existsSync(t.first), 'the first resource was applied').to.equal(false);
  }
  const graph = await t.graph();
  expect(graph.code).to.equal(1);
  expect(graph.stdout).to.equal('');
}

describe('validation before anything is applied', () => {
  it('file: a misspelt key and a bad mode, each at its own line, with a suggestion', async () => {
    const t = tree('file "{{first}}-2" {\n  ensure = "present"\n  onwer  = "root"\n  group  = "root"\n  mode   = "0888"\n}\n');
    await refused(t, [
      `${REST}: file:${t.first}-2: owner is required for ensure = "present"`,
      `${REST + 2}: file:${t.first}-2: unknown key "onwer" (did you mean "owner"?)`,
      `${REST + 4}: file:${t.first}-2: mode "0888" is not an octal mode (character "8" is not a digit 0-7)`,
    ]);
  });

  it('exec: refreshonly for refresh_only', async () => {
    const marker = '{{first}}-exec';
    const t = tree(`exec "touch ${marker}" {\n  creates     = "${marker}"\n  refreshonly = true\n}\n`);
    await refused(t, [`${REST + 2}: exec:touch ${t.first}-exec: unknown key "refreshonly" (did you mean "refresh_only"?)`]);
    expect(fs.existsSync(`${t.first}-exec`)).to.equal(false);
  });

  it('pkg: an ensure that is not a word or a version', async () => {
    const t = tree('pkg "govern-kit-nothing" {\n  ensure = "presnt"\n}\n');
    await refused(t, [`${REST + 1}: pkg:govern-kit-nothing: ensure "presnt" is not one of present, installed, absent, removed, purged, latest, or a version (did you mean "present"?)`]);
  });

  it('service: enabled for enable, and a scope sysv does not have', async () => {
    const t = tree('service "govern-kit-nothing" {\n  enabled  = true\n  provider = "sysv"\n  scope    = "user"\n}\n');
    await refused(t, [
      `${REST + 1}: service:govern-kit-nothing: unknown key "enabled" (did you mean "enable"?)`,
      `${REST + 2}: service:govern-kit-nothing: provider must be "systemd" when scope = "user", not "sysv"`,
    ]);
  });

  it('a signal the receiver does not accept, in notify: refused in a real run and in noop alike', async () => {
    const t = tree('exec "x" {\n  command      = "/bin/true"\n  refresh_only = true\n}\n\nfile "{{first}}-2" {\n  ensure = "absent"\n  notify = ["exec:x:restart"]\n}\n');
    await refused(t, [`${REST + 7}: file:${t.first}-2: notify "exec:x:restart": exec does not accept the signal "restart" (it accepts refresh)`]);
  });

  it('a signal the receiver does not accept, through subscribe (refresh), for a runner that describes its signals', async () => {
    const runners = tempDir('govern-kit-runners-');
    shRunner(runners, 'reloader', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { echo '{"govern_runner": 1, "signals": ["reload"]}'; exit 0; }\necho "message=ok"`);
    const t = tree('reloader "r" {\n  subscribe = ["file:{{first}}"]\n}\n', [runners]);
    await refused(t, [`${REST + 1}: reloader:r: subscribe "file:${t.first}": reloader does not accept the signal "refresh" (it accepts reload)`]);
  });

  it('a misspelt reference and a misspelt runner, with suggestions', async () => {
    const t = tree('exec "reload shopweb" {\n  command = "/bin/true"\n}\n\nfiel "/x" {}\n\nexec "y" {\n  command = "/bin/true"\n  notify  = ["exec:relaod shopweb"]\n}\n');
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`a.hcl:${REST + 4}: no runner "fiel": no executable named fiel in`);
    expect(r.stderr).to.match(/ \(did you mean "file"\?\)\n/);
    expect(r.stderr).to.contain(`a.hcl:${REST + 8}: exec:y: notify names "exec:relaod shopweb", which is not a resource in this state tree (did you mean "exec:reload shopweb"?)`);
    expect(fs.existsSync(t.first)).to.equal(false);
  });

  it('names the source line of a bad value when a template moved the lines, and the rendered line only for a helper\'s lines', async () => {
    const t = tree([
      '{{#each (split "a,b,c" ",")}}',
      'file "{{first}}-{{this}}" {',
      '  ensure = "absent"',
      '}',
      '{{/each}}',
      'file "{{first}}-2" {',
      '  ensure = "directory"',
      '  owner  = "root"',
      '  group  = "root"',
      '  mode   = "{{lower "0O9"}}"',
      '}',
      '',
    ].join('\n'));
    const r = await t.run();
    expect(r.code).to.equal(1);
    expect(r.stderr.trimEnd()).to.equal(`govern: ${path.join(t.states, 'a.hcl')}:${REST + 9}: file:${t.first}-2: mode "0o9" is not an octal mode (character "9" is not a digit 0-7)`);
  });

  it('relative_paths: a path in the tree missing or of the wrong kind, at its line, for any runner; an absolute one left to the runner', async () => {
    const runners = tempDir('govern-kit-runners-');
    const log = path.join(runners, 'calls');
    const rules = '[{"when": {"kind": ["tree"]}, "relative_paths": {"from": "directory"}}, {"when": {"kind": ["one"]}, "relative_paths": {"from": "file"}}]';
    const keys = '{"from": {"type": "string"}, "kind": {"type": "enum", "values": ["tree", "one"], "default": "tree"}}';
    shRunner(runners, 'copy', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { echo '{"govern_runner": 1, "keys": ${keys}, "rules": ${rules}}'; exit 0; }\necho "$*" >> ${log}`);
    const rest = 'copy "a" {\n  from = "site"\n}\ncopy "b" {\n  from = "nosuch"\n}\ncopy "c" {\n  from = "site/x"\n  kind = "one"\n}\ncopy "d" {\n  from = "site"\n  kind = "one"\n}\n';
    const bad = tree(rest, [runners]);
    writeFile(path.join(bad.states, 'site', 'x'), 'x\n');
    await refused(bad, [
      `${REST + 4}: copy:b: from "nosuch" must be a directory for kind = "tree": ${path.join(bad.states, 'nosuch')} does not exist`,
      `${REST + 11}: copy:d: from "site" must be a regular file for kind = "one": ${path.join(bad.states, 'site')} is a directory`,
    ]);
    const good = tree('copy "a" {\n  from = "site"\n}\ncopy "b" {\n  from = "/nosuch"\n}\n', [runners]);
    fs.mkdirSync(path.join(good.states, 'site'));
    const r = await good.run();
    expect(r.code, r.stderr).to.equal(0);
    // a and b are independent: with GOVERN_JOBS=4 (the second pass) they may run in either order.
    expect(fs.readFileSync(log, 'utf8').split('\n').sort()).to.deep.equal(['', 'a from=site', 'b from=/nosuch']);
  });

  it('a custom runner that describes itself gets the same checks; one that does not is passed anything, as before', async () => {
    const runners = tempDir('govern-kit-runners-');
    const log = path.join(runners, 'calls');
    shRunner(runners, 'strict', `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { echo '{"govern_runner": 1, "keys": {"size": {"type": "integer", "min": 1}}}'; exit 0; }\necho "$*" >> ${log}`);
    shRunner(runners, 'loose', `[ -n "\${1:-}" ] || { echo "usage: loose NAME [key=value...]" >&2; exit 2; }\necho "$*" >> ${log}`);
    const bad = tree('strict "s" {\n  size = 0\n}\n', [runners]);
    await refused(bad, [`${REST + 1}: strict:s: size "0" is not an integer of at least 1`]);
    const good = tree('strict "s" {\n  size = 2\n}\nloose "l" {\n  anything = "goes"\n}\n', [runners]);
    const r = await good.run();
    expect(r.code, r.stderr).to.equal(0);
    expect(fs.readFileSync(log, 'utf8').split('\n').sort()).to.deep.equal(['', 'l anything=goes', 's size=2']);
  });
});
