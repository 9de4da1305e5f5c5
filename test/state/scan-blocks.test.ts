import { expect } from 'chai';
import { scanTopLevel } from '../../src/state/scan-blocks.js';

describe('scanTopLevel', () => {
  it('returns blocks in source order with their lines, the lines of their keys, and decoded labels', () => {
    const text = [
      'service "nginx" {', //           1
      '  state = "running"',
      '}',
      '',
      'pkg "a\\"b\\\\c" { x = "}" }', // 5
      'file "/etc/x" {',
      '  contents = "{ not a block }"',
      '}',
    ].join('\n');
    expect(scanTopLevel(text)).to.deep.equal([
      { kind: 'block', type: 'service', labels: ['nginx'], line: 1, keys: [{ name: 'state', line: 2 }] },
      { kind: 'block', type: 'pkg', labels: ['a"b\\c'], line: 5, keys: [{ name: 'x', line: 5 }] },
      { kind: 'block', type: 'file', labels: ['/etc/x'], line: 6, keys: [{ name: 'contents', line: 7 }] },
    ]);
  });

  it('is not fooled by comments, heredocs, interpolations or nested blocks', () => {
    const text = `# pkg "commented" {
// another "x" {
/* block "y" {
} */
exec "one" {
  command = <<EOT
}
fake "block" {
EOT
  note = "\${"}"} still a string { "
  nested {
    inner = [{ a = "}" }]
  }
}
exec "two" {
  script = <<-EOT
    }
    EOT
}
attr = { a = "}" }
last lbl "two" {}
`;
    expect(scanTopLevel(text)).to.deep.equal([
      { kind: 'block', type: 'exec', labels: ['one'], line: 5, keys: [{ name: 'command', line: 6 }, { name: 'note', line: 10 }, { name: 'nested', line: 11 }] },
      { kind: 'block', type: 'exec', labels: ['two'], line: 15, keys: [{ name: 'script', line: 16 }] },
      { kind: 'attribute', name: 'attr', line: 20 },
      { kind: 'block', type: 'last', labels: ['lbl', 'two'], line: 21, keys: [] },
    ]);
  });

  it('decodes escapes in labels like HCL does', () => {
    expect(scanTopLevel('x "tab\\there \\u00e9 $${lit}" {}')[0]).to.deep.include({ labels: ['tab\there é ${lit}'] });
  });
});
