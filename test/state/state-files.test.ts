import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { govern, RUNNERS_DIR, shRunner } from '../support/cli.js';
import { callRefs, runnersWith } from '../support/recording-runner.js';
import { tempDir, writeFile } from '../support/tmp.js';

/** A directory with recording runners x and y, and a place for state files. */
function setup() {
  const dir = tempDir('govern-harden-');
  const log = path.join(dir, 'calls.log');
  const runners = runnersWith(path.join(dir, 'runners'), log, ['x', 'y']);
  const states = path.join(dir, 'states');
  fs.mkdirSync(states);
  // A hung read must fail the test, not hang it.
  const run = (target: string, ...extra: string[]) => govern(['run', target, '--runners-dir', runners, '--no-cache', ...extra], { timeoutMs: 30_000 });
  return { dir, log, runners, states, run, calls: () => callRefs(log) };
}

describe('state files: what govern reads', () => {
  it('reads only regular files: a FIFO and /dev/zero are refused at once, by path', async () => {
    const t = setup();
    const fifo = path.join(t.states, 'fifo.hcl');
    execFileSync('mkfifo', [fifo]);
    const zero = path.join(t.dir, 'zero.hcl');
    fs.symlinkSync('/dev/zero', zero);
    for (const [target, kind] of [[fifo, 'a FIFO'], [zero, 'a character device'], ['/dev/zero', 'a character device']]) {
      const r = await t.run(target);
      expect(r.code, target).to.equal(1);
      expect(r.stderr).to.equal(`govern: ${target}: not a regular file (${kind}): govern reads only regular files\n`);
    }
    writeFile(path.join(t.states, 'a.hcl'), 'x "a" {\n}\n');
    const tree = await t.run(t.states);
    expect(tree.stderr).to.equal(`govern: ${fifo}: not a regular file: govern reads only regular files\n`);
    expect(t.calls()).to.deep.equal([]);
  });

  it('refuses a state file over 64 MiB without reading it', async () => {
    const t = setup();
    const big = path.join(t.states, 'big.hcl');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 64 * 1024 * 1024 + 1);
    const r = await t.run(big);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${big}: larger than 64 MiB: govern refuses templates and state files this large\n`);
  });

  it('refuses bytes that are not UTF-8, with the line, and applies nothing', async () => {
    const t = setup();
    const file = path.join(t.states, 'a.hcl');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('x "a" {\n}\nx "b" {\n  contents = "caf'), Buffer.from([0xe9]), Buffer.from('"\n}\n')]));
    const r = await t.run(t.states);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${file}:4: not valid UTF-8 (byte 0xe9): govern reads templates and state files as UTF-8 and never alters them\n`);
    expect(t.calls()).to.deep.equal([]);
  });

  describe('symbolic links in a state tree', () => {
    it('follows links that stay inside the tree, refuses the rest by path, and applies nothing then', async () => {
      const t = setup();
      const outside = path.join(t.dir, 'elsewhere');
      writeFile(path.join(outside, 'o.hcl'), 'x "outside" {\n}\n');
      writeFile(path.join(t.states, 'a.hcl'), 'x "a" {\n}\n');
      writeFile(path.join(t.states, '.shared/s.hcl'), 'x "shared" {\n}\n');
      writeFile(path.join(t.states, 'files/app.conf'), 'data\n');
      fs.symlinkSync('.shared', path.join(t.states, 'shared')); // inside: followed
      fs.symlinkSync('/etc/hostname', path.join(t.states, 'files/hostname')); // data, not a state file: not looked at
      fs.symlinkSync(outside, path.join(t.states, '.elsewhere')); // a leading dot: skipped, as any such name
      const refused = {
        out: [outside, `a symbolic link to ${outside}, outside the state tree ${t.states}: move what it names into the tree, or give the link a name starting with "." so that govern skips it`],
        'outside.hcl': [path.join(outside, 'o.hcl'), `a symbolic link to ${path.join(outside, 'o.hcl')}, outside the state tree ${t.states}: move what it names into the tree, or give the link a name starting with "." so that govern skips it`],
        'dangling.hcl': ['nowhere.hcl', 'a dangling symbolic link (to nowhere.hcl): remove it, or give the link a name starting with "." so that govern skips it'],
        'files/loop': ['..', `the same directory as ${t.states}, already read: a directory is read once (a link to it would read it twice, or loop)`],
        'again.hcl': ['a.hcl', `the same file as ${path.join(t.states, 'a.hcl')}, already read: a file is read once (a link to it would read it twice, or loop)`],
      };
      for (const [name, [to]] of Object.entries(refused)) fs.symlinkSync(to, path.join(t.states, name));
      const r = await t.run(t.states);
      expect(r.code).to.equal(1);
      const expected = Object.entries(refused).map(([name, [, message]]) => `govern: ${path.join(t.states, name)}: ${message}`);
      expect(r.stderr.trim().split('\n').sort()).to.deep.equal(expected.sort());
      expect(t.calls()).to.deep.equal([]);

      for (const name of Object.keys(refused)) fs.unlinkSync(path.join(t.states, name));
      const ok = await t.run(t.states);
      expect(ok.stderr).to.equal('');
      expect(t.calls().sort(), 'both applied; the order is free with --jobs').to.deep.equal(['x:a', 'x:shared']);
    });
  });
});

describe('state files: values a runner cannot take', () => {
  it('refuses a NUL byte at planning, with the line, whatever the runner mode, and applies nothing', async () => {
    const t = setup();
    const file = writeFile(path.join(t.states, 'a.hcl'), 'exec "first" {\n  command = "/bin/true"\n}\nexec "second" {\n  command = "/bin/echo a\\u0000b"\n}\n');
    for (const mode of ['persistent', 'oneshot']) {
      const r = await govern(['run', file, '--runners-dir', RUNNERS_DIR, '--no-cache', '--runner-mode', mode], { timeoutMs: 30_000 });
      expect(r.code, mode).to.equal(1);
      expect(r.stderr).to.equal(
        `govern: ${file}:5: exec:second: command: contains a NUL byte (U+0000), which no command-line argument or environment can carry: ` +
          `refused whatever the runner mode (binary file content can come from the file runner's source)\n`,
      );
      expect(r.stdout).to.equal('');
    }
    writeFile(file, `x "a" {\n  env = { A = "\\u0000" }\n}\n`);
    expect((await t.run(file)).stderr).to.contain(`${file}:2: x:a: env: contains a NUL byte`);
    expect(t.calls()).to.deep.equal([]);
  });

  it('refuses a map nested deeper than 100 levels with the line, and takes 100', async () => {
    const t = setup();
    const nested = (depth: number) => `x "a" {\n  m = ${'{ a = '.repeat(depth)}1${' }'.repeat(depth)}\n}\n`;
    const file = writeFile(path.join(t.states, 'a.hcl'), `x "first" {\n}\n${nested(2000)}`);
    const r = await t.run(file);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(`govern: ${file}:4: nested more than 100 levels deep (brackets, braces, blocks and interpolations); govern refuses deeper nesting\n`);
    writeFile(file, nested(99)); // the block's braces are a level
    expect((await t.run(file)).stderr).to.equal('');
    expect(t.calls()).to.deep.equal(['x:a']);
  });
});

describe('state files: long values', () => {
  it('passes a long value exactly as written, escapes, heredocs and Unicode included', async () => {
    const t = setup();
    const out = path.join(t.dir, 'values');
    shRunner(t.runners, 'keep', `shift; for a in "$@"; do printf '%s\\0' "$a"; done >> ${out}\necho changed=false`);
    const value = 'tab\there "quoted" back\\slash ${literal} %{literal} e\u0301 caf\u00e9 \u{1F600}';
    const templateEscaped = value.split('${').join('$${').split('%{').join('%%{');
    const quoted = templateEscaped.split('\\').join('\\\\').split('"').join('\\"').split('\t').join('\\t');
    const repeat = 800; // over 4 KiB, the length from which govern parses a literal itself
    const file = writeFile(
      path.join(t.states, 'a.hcl'),
      `keep "a" {\n  q = "${`${quoted}\\n`.repeat(repeat)}"\n  h = <<EOT\n${`${templateEscaped}\n`.repeat(repeat)}EOT\n  n = 1\n}\n`,
    );
    const r = await t.run(file);
    expect(r.stderr).to.equal('');
    const expected = `${value.normalize('NFC')}\n`.repeat(repeat); // HCL normalizes text to NFC
    expect(fs.readFileSync(out, 'utf8').split('\0')).to.deep.equal([`q=${expected}`, `h=${expected}`, 'n=1', '']);
  });
});
