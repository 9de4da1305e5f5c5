// `govern secret` as a person uses it: set from stdin, show, recipients, and rekey after a host
// left a group, with real keys and the real age program.
import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN, govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { ageKey, sshKey, type TestKey } from './keys.js';

interface Keys {
  web1: TestKey;
  web2: TestKey;
  alice: TestKey;
}

function recipientsHcl(k: Keys, web: string[]): string {
  return `hosts = {\n  web1 = "${k.web1.recipient}"\n  web2 = "${k.web2.recipient}"\n}\npeople = { alice = "${k.alice.recipient}" }\ngroups = {\n  web = ${JSON.stringify(web)}\n  admins = ["alice"]\n}\n`;
}

function setup() {
  const dir = tempDir('govern-secret-cmd-');
  const k: Keys = { web1: sshKey(dir, 'web1'), web2: sshKey(dir, 'web2'), alice: ageKey(dir, 'alice') };
  const tree = path.join(dir, 'tree');
  writeFile(path.join(tree, 'recipients.hcl'), recipientsHcl(k, ['web1', 'web2']));
  const common = writeFile(path.join(tree, 'data/common.hcl'), '# shared\nmotd = "hi"\ndb = {\n  password = "old"\n  user = "app"\n}\n');
  return { dir, tree, common, k };
}

/** Runs govern with the value on stdin, through a pipe from a file as a person would. */
function set(args: string[], value: string): { code: number; stderr: string } {
  try {
    execFileSync(GOVERN, ['secret', 'set', ...args], { input: value, stdio: ['pipe', 'pipe', 'pipe'] });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { status: number; stderr: Buffer };
    return { code: err.status, stderr: err.stderr.toString() };
  }
}

describe('govern secret #once', () => {
  it('set encrypts stdin to the names given, changing only that line; show, recipients and the age program read it', async () => {
    const { dir, common, k } = setup();
    expect(set([common, 'db/password', '--to', 'web,admins'], 'N3w-pass\n')).to.deep.equal({ code: 0, stderr: '' });
    const text = fs.readFileSync(common, 'utf8');
    const lines = text.split('\n');
    expect(lines.filter((line, i) => line !== '# shared\nmotd = "hi"\ndb = {\n  password = "old"\n  user = "app"\n}\n'.split('\n')[i])).to.have.length(1);
    expect(lines[3]).to.match(/^ {2}password = "ENC\[age,to=web\+admins,[A-Za-z0-9+/=]+\]"$/);
    expect(text).not.to.include('N3w-pass');

    for (const key of [k.web1, k.web2, k.alice]) {
      const shown = await govern(['secret', 'show', common, 'db/password', '--identity', key.identity]);
      expect(shown.stdout, shown.stderr).to.equal('N3w-pass');
    }
    const age = path.join(dir, 'v.age');
    fs.writeFileSync(age, Buffer.from(/,([A-Za-z0-9+/=]+)\]/.exec(lines[3])![1], 'base64'));
    expect(execFileSync('age', ['-d', '-i', k.alice.identity, age], { encoding: 'utf8' })).to.equal('N3w-pass');

    const who = await govern(['secret', 'recipients', common]);
    expect(who.stdout).to.equal('db/password\tweb,admins\tweb1,web2,alice\n');
    const misspelt = await govern(['secret', 'show', common, 'db/pasword', '--identity', k.alice.identity]);
    expect(misspelt.code).to.equal(1);
    expect(misspelt.stderr).to.equal(`govern: ${common}: no key "db/pasword" (did you mean "db/password"?)\n`);

    // A new key is added at the end; an unknown name is refused before anything is written.
    expect(set([common, 'api/token', '--to', 'web1'], 'tok').code).to.equal(0);
    expect(fs.readFileSync(common, 'utf8')).to.match(/\napi = \{ token = "ENC\[age,to=web1,[^"]+\]" \}\n$/);
    const before = fs.readFileSync(common, 'utf8');
    const bad = set([common, 'db/password', '--to', 'admin'], 'x');
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.contain('no host, person or group "admin" (did you mean "admins"?)');
    expect(fs.readFileSync(common, 'utf8')).to.equal(before);
  });

  it('the value never comes from argv, and set without --to says so', async () => {
    const { common } = setup();
    const r = set([common, 'db/password'], 'x');
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('--to NAME[,NAME...]');
  });

  it('set at a terminal asks for the value and does not show it as it is typed (a real pty, through script)', async () => {
    const { common, k } = setup();
    const child = spawn('script', ['-qec', `${GOVERN} secret set ${common} db/password --to web1`, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    let typed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // Typed only once the prompt is there, as a person would.
      if (!typed && output.includes('(not shown): ')) {
        typed = true;
        child.stdin.write('Typed-at-tty\r');
      }
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, output).to.equal(0);
    expect(output).to.contain('Value of db/password (not shown): ');
    expect(output).not.to.contain('Typed-at-tty');
    const shown = await govern(['secret', 'show', common, 'db/password', '--identity', k.web1.identity]);
    expect(shown.stdout).to.equal('Typed-at-tty');
  });

  it('show writes the value byte for byte into a pipe or a file, and a newline after it at a terminal (a real pty, through script)', async () => {
    const { dir, common, k } = setup();
    // set drops the one newline a line typed or echoed ends with; the value's own lines stay.
    expect(set([common, 'db/password', '--to', 'web1'], 'line one\nline two\n\n').code).to.equal(0);
    const args = `secret show ${common} db/password --identity ${k.web1.identity}`;
    expect((await govern(args.split(' '))).stdout).to.equal('line one\nline two\n');
    const file = path.join(dir, 'value');
    execFileSync('sh', ['-c', `${GOVERN} ${args} > ${file}`]);
    expect(fs.readFileSync(file, 'utf8')).to.equal('line one\nline two\n');
    expect(set([common, 'db/password', '--to', 'web1'], 'S3cret').code).to.equal(0);
    expect((await govern(args.split(' '))).stdout).to.equal('S3cret');
    // The terminal turns each newline into CR LF.
    const onTerminal = execFileSync('script', ['-qec', `${GOVERN} ${args}`, '/dev/null'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    expect(onTerminal).to.equal('S3cret\r\n');
  });

  it('rekey after a host left a group: the host cannot read the new versions, the others still can', async () => {
    const { tree, common, k } = setup();
    writeFile(path.join(tree, 'data/hosts/web1.yaml'), 'token: plain\n');
    expect(set([common, 'db/password', '--to', 'web,admins'], 'R0tate-me').code).to.equal(0);
    expect(set([path.join(tree, 'data/hosts/web1.yaml'), 'token', '--to', 'web1'], 'w1-token').code).to.equal(0);
    expect(fs.readFileSync(path.join(tree, 'data/hosts/web1.yaml'), 'utf8')).to.match(/^token: "ENC\[age,to=web1,/);
    writeFile(path.join(tree, 'recipients.hcl'), recipientsHcl(k, ['web1']));

    const r = await govern(['secret', 'rekey', tree], { env: { ...process.env, GOVERN_IDENTITY: k.alice.identity } });
    // web1's own token is for web1 still: it is not touched (alice could not read it anyway).
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(`${common}:4: db/password: encrypted again (removes web2)\n1 value of 2 encrypted again\n`);

    const show = (key: TestKey) => govern(['secret', 'show', common, 'db/password', '--identity', key.identity]);
    expect((await show(k.web1)).stdout).to.equal('R0tate-me');
    expect((await show(k.alice)).stdout).to.equal('R0tate-me');
    const refused = await show(k.web2);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain('no identity matched any of the recipients');
  });
});
