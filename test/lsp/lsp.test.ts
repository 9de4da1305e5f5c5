// `govern lsp` driven by a real LSP client (vscode-jsonrpc over the process's stdio, as an editor
// starts it): initialize, diagnostics as a file is typed, completion, hover, definition, formatting
// and document symbols, on a tree with data levels, a module and the built-in runners.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { GOVERN, govern } from '../support/cli.js';
import { LspClient, positionOf, uri, type Diagnostic } from '../support/lsp-client.js';
import { tempDir, writeFile } from '../support/tmp.js';

interface Item {
  label: string;
  detail?: string;
  documentation?: string;
  textEdit?: { newText: string };
}
interface Location {
  uri: string;
  range: { start: { line: number } };
}

function siteText(dir: string): string {
  return `file "${dir}/motd" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = "{{data "greeting"}} on {{fact "hostname"}}\\n"
}

exec "greet" {
  command = "/usr/bin/true"
  after   = ["file:${dir}/motd"]
}

module "shop" {
  source = "site"
  name   = "shop"
}

health "motd written" {
  file = "${dir}/motd"
}
`;
}

/** A tree with two data levels, a module and one instance of it. */
function tree(): { root: string; site: string; text: string } {
  const root = tempDir();
  writeFile(path.join(root, 'hierarchy.hcl'), 'levels = ["common", "roles/web"]\n');
  writeFile(path.join(root, 'data', 'common.hcl'), 'greeting = "hello"\nweb      = { port = 80 }\n');
  writeFile(path.join(root, 'data', 'roles', 'web.hcl'), 'port     = 8080\ngreeting = "hi web"\n');
  writeFile(path.join(root, 'modules', 'site', 'variables.hcl'), 'variable "name" {\n  type        = "string"\n  description = "the site\'s name"\n}\n');
  writeFile(path.join(root, 'modules', 'site', 'site.hcl'), 'exec "site-{{name}}" {\n  command = "/usr/bin/true"\n}\n');
  const text = siteText(root);
  const site = writeFile(path.join(root, 'site.hcl'), text);
  return { root, site, text };
}

/** The text with `insert` put in place of the first `marker`. */
function edited(text: string, marker: string, insert: string): string {
  return text.replace(marker, insert);
}

describe('govern lsp, driven by an LSP client #once', function () {
  this.timeout(60_000);
  let client: LspClient | undefined;
  afterEach(() => client?.kill());

  async function started(): Promise<{ client: LspClient; root: string; site: string; text: string }> {
    const t = tree();
    client = await LspClient.start(GOVERN, t.root);
    const first = client.nextDiagnostics(t.site);
    await client.open(t.site, t.text);
    expect(await first, 'the tree as written has no problem').to.deep.equal([]);
    return { client, ...t };
  }

  it('initializes with its capabilities, and exits 0 after shutdown', async () => {
    const t = tree();
    client = await LspClient.start(GOVERN, t.root);
    const result = client.initialized as { capabilities: Record<string, unknown>; serverInfo: { name: string } };
    expect(result.serverInfo.name).to.equal('govern');
    expect(result.capabilities).to.include.keys('completionProvider', 'hoverProvider', 'definitionProvider', 'documentFormattingProvider', 'documentSymbolProvider', 'textDocumentSync');
    expect(await client.stop()).to.equal(0);
  });

  it('publishes what govern check says of the unsaved text after a change, at its range, and clears it when fixed', async () => {
    const { client, site, text } = await started();
    const broken = edited(text, 'ensure   = "present"', 'ensure   = "presnt"');
    let next = client.nextDiagnostics(site);
    await client.change(site, broken);
    const found: Diagnostic[] = await next;
    expect(found).to.have.length(1);
    expect(found[0].message).to.match(/ensure "presnt" is not one of .*did you mean "present"/);
    expect(found[0].range.start).to.deep.equal({ line: 1, character: 2 });
    expect(found[0].range.end.line).to.equal(1);
    expect(fs.readFileSync(site, 'utf8'), 'the file on disk is left alone').to.equal(text);
    // One character more makes it right again.
    next = client.nextDiagnostics(site);
    await client.change(site, text);
    expect(await next).to.deep.equal([]);
  });

  it('completes a runner\'s keys with their help, govern\'s own keys, allowed values and runner names', async () => {
    const { client, site, text } = await started();
    const typing = edited(text, '  command = "/usr/bin/true"\n', '  command = "/usr/bin/true"\n  cr\n');
    await client.change(site, typing);
    const keys = await client.request<Item[]>('textDocument/completion', site, positionOf(typing, '  cr\n', 4));
    const creates = keys.find((i) => i.label === 'creates');
    expect(creates?.documentation, 'the key\'s help from the exec runner\'s description').to.be.a('string').and.not.equal('');
    expect(keys.map((i) => i.label)).to.include.members(['command', 'creates', 'after', 'notify', 'tags']);
    expect(creates?.textEdit?.newText).to.equal('creates = ');

    const values = await client.request<Item[]>('textDocument/completion', site, positionOf(text, 'ensure   = "', 'ensure   = "'.length));
    expect(values.map((i) => i.label)).to.include.members(['present', 'absent']);

    const top = edited(text, 'exec "greet"', 'pk\nexec "greet"');
    await client.change(site, top);
    const runners = await client.request<Item[]>('textDocument/completion', site, positionOf(top, 'pk\n', 2));
    expect(runners.map((i) => i.label)).to.include.members(['pkg', 'file', 'service', 'module', 'health']);

    const health = `${text}\nhealth "answers" {\n  \n}\n`;
    await client.change(site, health);
    const checks = await client.request<Item[]>('textDocument/completion', site, positionOf(health, '  \n}\n', 2));
    expect(checks.map((i) => i.label)).to.include.members(['command', 'file', 'contains', 'port', 'service', 'url', 'status', 'timeout', 'retries']);
    expect(checks.map((i) => i.label), 'a health block is no resource: no runner keys').not.to.include('ensure');
  });

  it('completes RREFs (a module\'s resources too), module parameters, fact names and data keys', async () => {
    const { client, site, root, text } = await started();
    const typing = edited(text, 'after   = ["file:', 'after   = ["');
    await client.change(site, typing);
    const at = positionOf(typing, 'after   = ["', 'after   = ["'.length);
    const rrefs = await client.request<Item[]>('textDocument/completion', site, at);
    expect(rrefs.map((i) => i.label)).to.include.members([`file:${root}/motd`, 'exec:greet', 'exec:site-shop']);

    const params = edited(text, '  name   = "shop"\n', '  name   = "shop"\n  \n');
    await client.change(site, params);
    const declared = await client.request<Item[]>('textDocument/completion', site, positionOf(params, '  \n}', 2));
    expect(declared.map((i) => [i.label, i.documentation])).to.deep.include.members([['source', undefined], ['name', "the site's name"]]);

    const facts = await client.request<Item[]>('textDocument/completion', site, positionOf(text, '{{fact "', '{{fact "'.length));
    expect(facts.map((i) => i.label)).to.include.members(['hostname', 'os/family']);
    const keys = await client.request<Item[]>('textDocument/completion', site, positionOf(text, '{{data "', '{{data "'.length));
    expect(keys.map((i) => i.label)).to.include.members(['greeting', 'web', 'web/port', 'port']);
  });

  it('hovers with a key\'s help and the runner\'s docs page', async () => {
    const { client, site, text } = await started();
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', site, positionOf(text, 'ensure', 2));
    expect(hover.contents.value).to.match(/^\*\*ensure\*\* \(file\)/).and.to.match(/present/).and.to.match(/docs\/file\.md\]\(file:\/\//);
    const runner = await client.request<{ contents: { value: string } }>('textDocument/hover', site, positionOf(text, 'exec "greet"', 1));
    expect(runner.contents.value).to.match(/\*\*exec\*\*/).and.to.match(/docs\/exec\.md/).and.to.match(/`command`/);
  });

  it('goes from an RREF to its block, from a data key to the levels that set it, from an instance to its module', async () => {
    const { client, site, root, text } = await started();
    const rref = await client.request<Location[]>('textDocument/definition', site, positionOf(text, `["file:${root}/motd`, 4));
    expect(rref.map((l) => [l.uri, l.range.start.line])).to.deep.equal([[uri(site), 0]]);
    const key = await client.request<Location[]>('textDocument/definition', site, positionOf(text, 'greeting"', 3));
    expect(key.map((l) => [l.uri, l.range.start.line])).to.deep.equal([
      [uri(path.join(root, 'data', 'common.hcl')), 0],
      [uri(path.join(root, 'data', 'roles', 'web.hcl')), 1],
    ]);
    const module = await client.request<Location[]>('textDocument/definition', site, positionOf(text, 'source = "site"', 11));
    expect(module.map((l) => [l.uri, l.range.start.line])).to.deep.equal([[uri(path.join(root, 'modules', 'site', 'variables.hcl')), 0]]);
  });

  it('formats the unsaved text as govern fmt lays out the file', async () => {
    const { client, site, root } = await started();
    const messy = 'exec "greet" {\n    command="/usr/bin/true"\n  creates = "/tmp/x"\n}\nexec "other" {\ncommand = "/usr/bin/true"\n}\n';
    await client.change(site, messy);
    const edits = await client.request<{ newText: string; range: { start: { line: number }; end: { line: number } } }[]>('textDocument/formatting', site);
    expect(edits).to.have.length(1);
    expect(edits[0].range.start.line).to.equal(0);
    const copy = writeFile(path.join(root, 'copy', 'site.hcl'), messy);
    expect((await govern(['fmt', path.dirname(copy)])).code).to.equal(0);
    expect(edits[0].newText).to.equal(fs.readFileSync(copy, 'utf8')).and.not.equal(messy);
  });

  it('gives one document symbol per resource, named by its RREF, and one per health block', async () => {
    const { client, site, root } = await started();
    const symbols = await client.request<{ name: string; kind: number; range: { start: { line: number }; end: { line: number } } }[]>('textDocument/documentSymbol', site);
    expect(symbols.map((s) => [s.name, s.kind, s.range.start.line, s.range.end.line])).to.deep.equal([
      [`file:${root}/motd`, 19, 0, 6],
      ['exec:greet', 19, 8, 11],
      ['module:shop', 2, 13, 16],
      ['health:motd written', 24, 18, 20],
    ]);
  });
});
