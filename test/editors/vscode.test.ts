// The VS Code extension of editors/vscode: `make vsix` packages it with @vscode/vsce (its own
// dependencies, installed by the target from editors/vscode/package-lock.json), and its TextMate
// grammar, run by vscode-textmate (VS Code's own tokenizer), reads govern's HCL with Handlebars
// inside strings and heredocs. Skipped, with the reason, where the npm registry cannot be reached.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/cli.js';

const VSCODE = path.join(ROOT, 'editors', 'vscode');
const VSIX = path.join(VSCODE, 'govern.vsix');
const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|network/i;

interface Token {
  startIndex: number;
  endIndex: number;
  scopes: string[];
}

type RuleStack = unknown;
interface Grammar {
  tokenizeLine(line: string, stack: RuleStack): { tokens: Token[]; ruleStack: RuleStack };
}
interface TextMate {
  INITIAL: RuleStack;
  Registry: new (options: { onigLib: Promise<unknown>; loadGrammar: (scope: string) => Promise<unknown> }) => { loadGrammar(scope: string): Promise<Grammar | null> };
  parseRawGrammar(text: string, file: string): unknown;
}
interface Oniguruma {
  loadWASM(data: ArrayBuffer): Promise<void>;
  OnigScanner: new (patterns: string[]) => unknown;
  OnigString: new (text: string) => unknown;
}

// #once: the extension does not depend on the runner mode or jobs, and @vscode/vsce needs a newer
// Node than Debian 12's, on which the second pass runs.
describe('the VS Code extension (editors/vscode) #once', function () {
  this.timeout(600_000);

  before(function () {
    const made = spawnSync('make', ['vsix'], { cwd: ROOT, encoding: 'utf8' });
    if (made.status !== 0 && OFFLINE.test(made.stdout + made.stderr)) {
      process.stderr.write('skipped: the npm registry cannot be reached, so make vsix cannot install @vscode/vsce\n');
      this.skip();
    }
    expect(made.status, made.stdout + made.stderr).to.equal(0);
  });

  it('make vsix packages the manifest, the grammar and the language client bundled with its library', () => {
    const listed = spawnSync('unzip', ['-Z1', VSIX], { encoding: 'utf8' });
    expect(listed.status, listed.stderr).to.equal(0);
    expect(listed.stdout.split('\n')).to.include.members(['extension/package.json', 'extension/syntaxes/govern.tmLanguage.json', 'extension/language-configuration.json', 'extension/dist/extension.js']);
    expect(listed.stdout, 'node_modules stay out: the client is bundled').not.to.include('node_modules');
    const manifest = JSON.parse(spawnSync('unzip', ['-p', VSIX, 'extension/package.json'], { encoding: 'utf8' }).stdout) as { main: string; contributes: { grammars: { path: string }[] } };
    expect(manifest.main).to.equal('./dist/extension.js');
    const client = spawnSync('unzip', ['-p', VSIX, 'extension/dist/extension.js'], { encoding: 'utf8' }).stdout;
    expect(client).to.include('"lsp"').and.to.include('require("vscode")').and.not.to.include('require("vscode-languageclient');
  });

  it('the grammar scopes runners, keys, strings, and Handlebars inside strings, heredocs and between blocks', async () => {
    // The editor's own libraries, installed by make vsix in editors/vscode (not the main install's).
    const tm = require(path.join(VSCODE, 'node_modules', 'vscode-textmate')) as TextMate;
    const onig = require(path.join(VSCODE, 'node_modules', 'vscode-oniguruma')) as Oniguruma;
    await onig.loadWASM(fs.readFileSync(path.join(VSCODE, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm')).buffer as ArrayBuffer);
    const registry = new tm.Registry({
      onigLib: Promise.resolve({ createOnigScanner: (p: string[]) => new onig.OnigScanner(p), createOnigString: (s: string) => new onig.OnigString(s) }),
      loadGrammar: async () => tm.parseRawGrammar(fs.readFileSync(path.join(VSCODE, 'syntaxes', 'govern.tmLanguage.json'), 'utf8'), 'govern.tmLanguage.json'),
    });
    const grammar = (await registry.loadGrammar('source.govern'))!;
    const lines = [
      '{{#each (data "sites")}}',
      'file "/etc/motd" {',
      '  ensure   = "present" # a comment',
      '  contents = "Welcome to {{fact "hostname"}}\\n"',
      '  vars     = <<-EOT',
      '    port {{port}}',
      '  EOT',
      '}',
      '{{/each}}',
    ];
    const stack = tm.INITIAL;
    const scopesOf = (line: number, text: string): string[] => {
      let state = stack;
      for (let i = 0; i <= line; i++) {
        const r = grammar.tokenizeLine(lines[i], state);
        if (i === line) {
          const at = lines[i].indexOf(text);
          return r.tokens.find((t) => t.startIndex <= at && at < t.endIndex)!.scopes;
        }
        state = r.ruleStack;
      }
      return [];
    };
    expect(scopesOf(0, 'each')).to.include('entity.name.function.helper.handlebars.govern');
    expect(scopesOf(1, 'file')).to.include('entity.name.type.runner.govern');
    expect(scopesOf(2, 'ensure')).to.include('variable.other.key.govern');
    expect(scopesOf(2, 'present')).to.include('string.quoted.double.govern');
    expect(scopesOf(2, 'a comment')).to.include('comment.line.number-sign.govern');
    expect(scopesOf(3, 'fact')).to.include.members(['string.quoted.double.govern', 'meta.embedded.handlebars.govern', 'entity.name.function.helper.handlebars.govern']);
    expect(scopesOf(3, '"hostname"')).to.include('string.quoted.double.handlebars.govern');
    expect(scopesOf(3, '\\n')).to.include('constant.character.escape.govern');
    expect(scopesOf(5, 'port {{')).to.include('string.unquoted.heredoc.govern').and.not.include('meta.embedded.handlebars.govern');
    expect(scopesOf(5, '{{port')).to.include.members(['string.unquoted.heredoc.govern', 'meta.embedded.handlebars.govern']);
    expect(scopesOf(8, '/each')).to.include('meta.embedded.handlebars.govern').and.not.include('string.unquoted.heredoc.govern');
  });
});
