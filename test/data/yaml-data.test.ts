// YAML data files are read with the core schema only: a tag yaml cannot resolve is refused (not
// dropped for the text under it), and an alias bomb is a file's error, not an internal one.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

function treeWith(common: string): string {
  const dir = tempDir();
  writeFile(path.join(dir, 'hierarchy.hcl'), 'levels = ["common"]\n');
  writeFile(path.join(dir, 'data/common.yaml'), common);
  writeFile(path.join(dir, 'motd.hcl'), 'file "/etc/motd" {\n  ensure   = "present"\n  owner    = "root"\n  group    = "root"\n  mode     = "0644"\n  contents = {{quote (data "motd")}}\n}\n');
  return dir;
}

describe('YAML data files #once', () => {
  it('refuse tags outside the core schema, each at its line, and keep the core ones', async () => {
    const tree = treeWith('motd: !!str hello\nn: !!int "5"\nf: !!js/function "function () {}"\nv: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\nc: !custom x\nb: !!binary aGk=\n');
    const r = await govern(['plan', '--no-cache', tree]);
    expect(r.code).to.equal(1);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines.map((l) => l.replace(/: a data file .*/, ''))).to.deep.equal([
      'govern: data/common.yaml:3: tag !!js/function',
      'govern: data/common.yaml:4: tag !vault',
      'govern: data/common.yaml:6: tag !custom',
      'govern: data/common.yaml:7: tag !!binary',
    ]);
    expect(lines[0]).to.contain("a data file holds plain values of YAML's core schema");
    const plain = await govern(['plan', '--no-cache', treeWith('motd: !!str hello\nn: !!int "5"\n')]);
    expect(plain.stderr).to.equal('');
    expect(plain.stdout).to.contain('hello');
  });

  it('keep integers exact, or refuse one a number cannot hold (YAML, JSON and HCL alike)', async () => {
    for (const [name, text, line] of [['common.yaml', 'motd: x\nids: {a: 12345678901234567890}\n', 2], ['common.json', '{"motd": "x",\n "id": 12345678901234567890}\n', 2], ['common.hcl', 'motd = "x"\nid = 12345678901234567890\n', 2]] as const) {
      const tree = treeWith('');
      fs.rmSync(path.join(tree, 'data/common.yaml'));
      writeFile(path.join(tree, 'data', name), text);
      const r = await govern(['plan', '--no-cache', tree]);
      expect(r.code, name).to.equal(1);
      expect(r.stderr).to.match(new RegExp(`^govern: data/${name.replace('.', '\\.')}:${line}:.*12345678901234567890 is larger than a number can hold exactly`));
    }
    const exact = await govern(['plan', '--no-cache', treeWith('motd: "9007199254740991"\nn: 9007199254740991\n')]);
    expect(exact.stderr).to.equal('');
    expect(exact.stdout).to.contain('9007199254740991');
  });

  it('report an alias bomb as the file\'s error', async () => {
    let bomb = 'motd: x\na: &a [x, x, x, x, x, x, x, x, x]\n';
    let previous = 'a';
    for (const name of 'bcdefghi') {
      bomb += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]\n`;
      previous = name;
    }
    const r = await govern(['plan', '--no-cache', treeWith(bomb)]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal('govern: data/common.yaml: its aliases (*name) expand to too many values (past 100 expansions): govern refuses a file whose aliases multiply\n');
  });
});
